import { todayIn, type RequestKind } from '@fankurve/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { requestTicket, useMyTickets, type MyTicket } from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { debtText } from '../../ui/money.js';
import { requestErrorText, ticketPriceText } from './format.js';
import './tickets.css';

/**
 * /my-tickets (docs/product.md, Tickets and money): what the member owes and the three lists, read from the device,
 * so it works offline; the paid and received requests are written to the device and synced.
 */
export function MyTicketsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const today = todayIn(useSiteConfig().time_zone);
  const tickets = useMyTickets(user.id, today);
  const titleId = useId();
  const language = currentLanguage();

  if (!tickets) return <Loading />;
  const lists = [
    ['unpaid', tickets.unpaid],
    ['pending', tickets.pending],
    ['paid', tickets.paid],
  ] as const;
  return (
    <section className="page my-tickets" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('tickets.title')}</h1>
      <p
        className={tickets.unpaidTotalCents > 0 || tickets.unpaidOpenPriceCount > 0 ? 'debt-total debt-total-open' : 'debt-total'}
        data-testid="unpaid-total"
      >
        <span>{t('tickets.unpaidTotal')}</span>{' '}
        <strong>{debtText(tickets.unpaidTotalCents, tickets.unpaidOpenPriceCount, language, t)}</strong>
      </p>
      {lists.map(([list, items]) => (
        <section key={list} className="ticket-list" aria-labelledby={`${titleId}-${list}`} data-list={list}>
          <h2 id={`${titleId}-${list}`} className="section-title">
            {t(`tickets.${list}`)} <span className="badge badge-muted">{items.length}</span>
          </h2>
          {items.length === 0 ? (
            <p className="muted">{t('tickets.none')}</p>
          ) : (
            <ul className="plain-list ticket-items">
              {items.map((ticket) => (
                <TicketItem key={ticket.id} ticket={ticket} userId={user.id} />
              ))}
            </ul>
          )}
        </section>
      ))}
    </section>
  );
}

function TicketItem({ ticket, userId }: { ticket: MyTicket; userId: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const [busy, setBusy] = useState(false);

  async function request(kind: RequestKind) {
    if (busy) return;
    setBusy(true);
    try {
      await requestTicket(ticket.id, userId, kind);
      toastSuccess(t('tickets.requestSaved'));
    } catch (error) {
      toastError(requestErrorText(error));
    } finally {
      setBusy(false);
    }
  }

  const title = ticket.event_title ?? t('tickets.unknownEvent');
  return (
    <li className={ticket.overdue ? 'card ticket-item ticket-overdue' : 'card ticket-item'} data-ticket={ticket.id}>
      <div className="ticket-head">
        <h3 className="ticket-title">
          {ticket.event_title && !ticket.archived ? <Link to={`/events/${ticket.event_id}`}>{title}</Link> : title}
        </h3>
        <span className="ticket-price">{ticketPriceText(ticket, language, t)}</span>
      </div>
      <p className="ticket-meta muted">
        {ticket.event_date ? (
          <time dateTime={ticket.event_date.replace(' ', 'T')}>{formatEventDate(ticket.event_date, language)}</time>
        ) : null}
        {ticket.event_location ? <span> · {ticket.event_location}</span> : null}
        {ticket.archived ? <span> · {t('tickets.archived')}</span> : null}
      </p>
      {ticket.guest_name ? <p className="ticket-guest">{t('tickets.guest', { name: ticket.guest_name })}</p> : null}
      {ticket.overdue ? <p className="notice notice-warning ticket-overdue-note">{t('tickets.overdue')}</p> : null}
      <div className="ticket-actions">
        {ticket.received ? <span className="badge badge-muted">{t('tickets.received')}</span> : null}
        {ticket.paidRequested ? <span className="badge badge-amber">{t('tickets.paidRequested')}</span> : null}
        {ticket.receivedRequested ? <span className="badge badge-amber">{t('tickets.receivedRequested')}</span> : null}
        {ticket.canRequestPaid ? (
          <button
            type="button"
            className="button button-primary button-small"
            disabled={busy}
            onClick={() => void request('paid')}
          >
            {t('tickets.requestPaid')}
          </button>
        ) : null}
        {ticket.canRequestReceived ? (
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={busy}
            onClick={() => void request('received')}
          >
            {t('tickets.requestReceived')}
          </button>
        ) : null}
      </div>
    </li>
  );
}
