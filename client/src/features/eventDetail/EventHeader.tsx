import { CLUB_CASH_DESK, mayDeleteEvent, type AttendeeDoc, type EventDoc, type Language, type MemberDoc } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { clearUpdated, deleteEvent } from '../../api/eventDetail.js';
import { errorText, messageText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { AnswerDeadline } from '../events/index.js';
import { DeleteEventDialog } from './DeleteEventDialog.js';
import { EventEditForm } from './EventEditForm.js';
import { EventImage } from './EventImage.js';
import { boughtTicketRows } from './attendeeTable.js';
import type { Access } from './shared.js';

interface Props {
  event: EventDoc;
  names: ReadonlyMap<string, string>;
  members: readonly MemberDoc[];
  /** The event's attendee rows on the device (undefined while loading): the delete confirmation names the bought tickets. */
  attendees: readonly AttendeeDoc[] | undefined;
  access: Access;
  language: Language;
}

/** Title, UPDATED badge, creator and the event's facts; the creator or an admin edits them in place and deletes. */
export function EventHeader({ event, names, members, attendees, access, language }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [busy, setBusy] = useState(false);
  const tickets = useMemo(() => boughtTicketRows(attendees ?? [], names, t('eventDetail.unknownMember')), [attendees, names, t]);
  // Bought tickets are debts and records: only an admin may delete the event then (the server archives it).
  const deleteBlocked = !mayDeleteEvent(access, tickets.length > 0);

  // The name the event document carries (kept when the account is gone); older documents: the members.
  const creator =
    shownName(event.creator_name) ||
    (event.created_by ? names.get(event.created_by) : undefined) ||
    t('eventDetail.unknownMember');
  const buyer =
    event.ticket_buyer === CLUB_CASH_DESK
      ? t('eventDetail.clubCashDesk')
      : event.ticket_buyer
        ? (names.get(event.ticket_buyer) ?? event.ticket_buyer)
        : null;

  async function clearBadge() {
    setBusy(true);
    try {
      await clearUpdated(event.id);
    } catch (error) {
      toastError(errorText(error, 'errors.clearUpdatedFailed'));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await deleteEvent(event.id);
      setConfirmDelete(false);
      toastSuccess(t('eventDetail.eventDeleted'));
      void navigate('/events', { replace: true });
    } catch (error) {
      toastError(errorText(error, 'errors.deleteEventFailed'));
      setBusy(false);
    }
  }

  if (editing) {
    return (
      <section className="card detail-header" aria-labelledby="event-edit-title">
        <EventEditForm
          event={event}
          members={members}
          scope={access.scope}
          hasBoughtTickets={tickets.length > 0}
          online={access.online}
          onDone={() => setEditing(false)}
        />
      </section>
    );
  }

  return (
    <section className="card detail-header" aria-labelledby="event-title">
      <div className="detail-header-main">
        <div className="detail-title-row">
          <h1 id="event-title" className="detail-title">
            {event.title}
          </h1>
          {event.is_updated ? (
            <span className="badge badge-amber" title={t('eventDetail.updatedHint')}>
              {t('eventDetail.updated')}
            </span>
          ) : null}
          {event.is_updated && access.isAdmin ? (
            <button
              type="button"
              className="button button-small button-ghost"
              disabled={busy || !access.online}
              onClick={() => void clearBadge()}
            >
              {t('eventDetail.clearUpdated')}
            </button>
          ) : null}
        </div>
        <dl className="facts detail-facts">
          <div>
            <dt>{t('eventDetail.createdBy')}</dt>
            <dd>{creator}</dd>
          </div>
          <div>
            <dt>{t('eventDetail.when')}</dt>
            <dd>
              <time dateTime={isoWallClock(event.date)}>{formatEventDate(event.date, language)}</time>
            </dd>
          </div>
          <AnswerDeadline deadline={event.answer_deadline} clubNow={access.clubNow} language={language} />
          <div>
            <dt>{t('eventDetail.where')}</dt>
            <dd>{event.location}</dd>
          </div>
          {event.stadium_name ? (
            <div>
              <dt>{t('eventDetail.stadium')}</dt>
              <dd>
                {event.stadium_name}
                {event.stadium_address ? <span className="detail-address">{event.stadium_address}</span> : null}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>{t('eventDetail.ticketPrice')}</dt>
            <dd>{event.ticket_price_cents > 0 ? formatMoney(event.ticket_price_cents, language) : t('eventDetail.priceTba')}</dd>
          </div>
          {event.ticket_prices.length > 0 ? (
            <div>
              <dt>{t('eventDetail.priceOptions')}</dt>
              <dd>
                <ul className="plain-list">
                  {event.ticket_prices.map((option) => (
                    <li key={option.id}>
                      {option.ticket_type}: {formatMoney(option.price_cents, language)}
                    </li>
                  ))}
                </ul>
              </dd>
            </div>
          ) : null}
          {buyer ? (
            <div>
              <dt>{t('eventDetail.ticketBuyer')}</dt>
              <dd>{buyer}</dd>
            </div>
          ) : null}
        </dl>
        {event.description ? <p className="detail-description">{event.description}</p> : null}
        {access.canManage ? (
          <div className="detail-actions">
            <button type="button" className="button button-ghost" disabled={!access.online} onClick={() => setEditing(true)}>
              {t('eventDetail.editEvent')}
            </button>
            <button
              type="button"
              className="button button-danger-ghost"
              disabled={!access.online || busy || deleteBlocked}
              onClick={() => setConfirmDelete(true)}
            >
              {t('eventDetail.deleteEvent')}
            </button>
            {access.isAdmin ? (
              <Link className="button button-ghost" to={`/events/${event.id}/print`}>
                {t('account.print.link')}
              </Link>
            ) : null}
            {!access.online ? <p className="offline-hint">{t('eventDetail.offlineHint')}</p> : null}
            {access.online && deleteBlocked ? <p className="offline-hint">{messageText('eventHasTickets')}</p> : null}
          </div>
        ) : null}
      </div>
      <EventImage event={event} access={access} />
      {confirmDelete ? (
        <DeleteEventDialog
          event={event}
          tickets={tickets}
          language={language}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirmDelete(false)}
        />
      ) : null}
    </section>
  );
}
