import type { EventDoc } from '@fankurve/shared';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Stadium } from '../../api/stadiums.js';
import { currentLanguage } from '../../i18n/index.js';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';

interface Props {
  stadium: Stadium;
  /** The events on this device (not archived); undefined while they load. */
  events: readonly EventDoc[] | undefined;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** The live events at a stadium, by date: what keeps it from being deleted (the server refuses the same, 409). */
export function eventsUsing(events: readonly EventDoc[], stadiumId: string): EventDoc[] {
  return events
    .filter((event) => event.stadium_id === stadiumId)
    .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
}

/**
 * Deleting a stadium (docs/architecture.md, Readings of the product specification): a stadium that
 * events use is not offered for deletion; the dialog names those events (links to them), so the
 * admin knows which to give another stadium. Otherwise a confirmation.
 */
export function DeleteStadiumDialog({ stadium, events, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const textId = useId();
  const used = useMemo(() => eventsUsing(events ?? [], stadium.id), [events, stadium.id]);

  if (used.length === 0) {
    return (
      <ConfirmDialog
        title={t('stadiums.deleteTitle')}
        message={t('stadiums.deleteQuestion', { name: stadium.stadium_name })}
        confirmLabel={t('stadiums.delete')}
        busy={busy}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    );
  }
  return (
    <Modal title={t('stadiums.inUseTitle')} onClose={onCancel} size="small" describedBy={textId}>
      <p id={textId} className="confirm-message">
        {t('stadiums.inUseText', { name: stadium.stadium_name })}
      </p>
      <ul className="plain-list stack stadium-in-use">
        {used.map((event) => (
          <li key={event.id}>
            <Link to={`/events/${encodeURIComponent(event.id)}`} className="stadium-event">
              <span className="stadium-event-title">{event.title}</span>
              <time className="stadium-event-date" dateTime={isoWallClock(event.date)}>
                {formatEventDate(event.date, language)}
              </time>
            </Link>
          </li>
        ))}
      </ul>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}
