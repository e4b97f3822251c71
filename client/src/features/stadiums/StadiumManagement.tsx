import { eurosToCents, formatMoney } from '@fankurve/shared/rules/money';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { deleteStadium, type Stadium } from '../../api/stadiums.js';
import { useEvents, useSyncStatus } from '../../data/index.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { DeleteStadiumDialog } from './DeleteStadiumDialog.js';
import { StadiumFormDialog } from './StadiumFormDialog.js';
import { TicketPrices } from './TicketPrices.js';
import { useStadiums, type StadiumWithPrices } from './useStadiums.js';
import './stadiums.css';

const numberFormat = (language: string) => new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'de-DE');

/** The Stadium management tab: list, add, edit and delete stadiums, and each stadium's ticket prices. */
export function StadiumManagement() {
  const { t } = useTranslation();
  const { online } = useSyncStatus();
  const { stadiums, error, reload } = useStadiums();
  // The events on the device tell which stadiums are in use (the delete dialog names them).
  const events = useEvents();
  const [editing, setEditing] = useState<Stadium | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Stadium | null>(null);
  const [busy, setBusy] = useState(false);

  async function confirmDelete() {
    if (!deleting || busy) return;
    setBusy(true);
    try {
      await deleteStadium(deleting.id);
      toastSuccess(messageText('stadiumDeleted'));
      reload();
    } catch (failure) {
      // E.g. the server refuses to delete a stadium that events use: its message says so.
      toastError(errorText(failure, 'errors.deleteStadiumFailed'));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  }

  return (
    <div className="stadium-management">
      <div className="title-row">
        <h2>{t('stadiums.title')}</h2>
        <button type="button" className="button button-primary" onClick={() => setEditing('new')}>
          {t('stadiums.add')}
        </button>
      </div>
      {online ? null : <p className="offline-hint">{t('stadiums.offline')}</p>}
      {stadiums === null ? (
        error ? (
          <div className="empty-state" role="alert">
            <p>{errorText(error, 'errors.loadStadiumsFailed')}</p>
            <button type="button" className="button button-secondary" onClick={reload}>
              {t('stadiums.retry')}
            </button>
          </div>
        ) : (
          <Loading />
        )
      ) : stadiums.length === 0 ? (
        <p className="empty-state">{t('stadiums.empty')}</p>
      ) : (
        <ul className="card-list">
          {stadiums.map((stadium) => (
            <StadiumItem
              key={stadium.id}
              stadium={stadium}
              onEdit={() => setEditing(stadium)}
              onDelete={() => setDeleting(stadium)}
              onChanged={reload}
            />
          ))}
        </ul>
      )}
      {editing ? (
        <StadiumFormDialog stadium={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} />
      ) : null}
      {deleting ? (
        <DeleteStadiumDialog
          stadium={deleting}
          events={events}
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </div>
  );
}

function StadiumItem({
  stadium,
  onEdit,
  onDelete,
  onChanged,
}: {
  stadium: StadiumWithPrices;
  onEdit: () => void;
  onDelete: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const numbers = numberFormat(language);
  const headingId = `stadium-${stadium.id}`;
  return (
    <li>
      <article className="card stadium-card" aria-labelledby={headingId}>
        <div className="stadium-head">
          <h3 id={headingId}>
            <Link to={`/stadiums/${encodeURIComponent(stadium.id)}`}>{stadium.stadium_name}</Link>
          </h3>
          <p className="stadium-sub">
            {stadium.team_name} · {stadium.city}
          </p>
        </div>
        <dl className="facts">
          <div>
            <dt>{t('stadiums.capacity')}</dt>
            <dd>{numbers.format(stadium.capacity)}</dd>
          </div>
          <div>
            <dt>{t('stadiums.guestBlock')}</dt>
            <dd>{numbers.format(stadium.guest_block_capacity)}</dd>
          </div>
          <div>
            <dt>{t('stadiums.address')}</dt>
            <dd>{stadium.address || '–'}</dd>
          </div>
          <div>
            <dt>{t('stadiums.ticketPrice')}</dt>
            <dd>{stadium.ticket_price === null ? '–' : formatMoney(eurosToCents(stadium.ticket_price), language)}</dd>
          </div>
        </dl>
        <TicketPrices stadium={stadium} onChanged={onChanged} />
        <div className="card-actions">
          <button type="button" className="button button-secondary button-small" onClick={onEdit} aria-describedby={headingId}>
            {t('stadiums.edit')}
          </button>
          <button type="button" className="button button-danger button-small" onClick={onDelete} aria-describedby={headingId}>
            {t('stadiums.delete')}
          </button>
        </div>
      </article>
    </li>
  );
}
