import type { EventDoc, Language } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { ticketLabelOf, type AttendeeRow } from './attendeeTable.js';

interface Props {
  event: EventDoc;
  /** The event's bought tickets on the device (boughtTicketRows): an admin's deletion keeps them. */
  tickets: readonly AttendeeRow[];
  language: Language;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The confirmation before deleting an event. With bought tickets (only an admin gets here then) it
 * names each ticket, its price and whether it is paid, and says that the tickets and their debts
 * are kept (docs/architecture.md, Data model).
 */
export function DeleteEventDialog({ event, tickets, language, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const textId = useId();
  if (tickets.length === 0) {
    return (
      <ConfirmDialog
        title={t('eventDetail.deleteEventTitle')}
        message={t('eventDetail.deleteEventText', { title: event.title })}
        confirmLabel={t('eventDetail.delete')}
        busy={busy}
        onConfirm={onConfirm}
        onCancel={onCancel}
      />
    );
  }

  const priceOf = (row: AttendeeRow) => {
    const label = ticketLabelOf(row.doc, event.ticket_prices);
    if (label.kind === 'free') return t('eventDetail.ticketFree');
    if (label.kind === 'tbd') return t('eventDetail.priceTba');
    if (label.kind === 'price') return formatMoney(label.cents, language);
    return '–';
  };

  return (
    <Modal title={t('eventDetail.deleteEventTitle')} onClose={onCancel} size="small" describedBy={textId} busy={busy}>
      <div id={textId}>
        <p className="confirm-message">{t('eventDetail.deleteEventTickets', { title: event.title })}</p>
        <ul className="plain-list delete-event-tickets">
          {tickets.map((row) => (
            <li key={row.doc.id}>
              {row.isGuest ? t('eventDetail.guestOf', { name: row.name, host: row.host }) : row.name} · {priceOf(row)} ·{' '}
              {row.doc.paid ? t('eventDetail.ticketPaid') : t('eventDetail.ticketNotPaid')}
            </li>
          ))}
        </ul>
        <p className="confirm-message">{t('eventDetail.deleteEventTicketsKept')}</p>
      </div>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {t('eventDetail.delete')}
        </button>
      </div>
    </Modal>
  );
}
