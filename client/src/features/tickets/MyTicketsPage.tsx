import { paymentReference } from '@fankurve/shared/rules/girocode';
import { ticketChargeCents, todayIn, type RequestKind } from '@fankurve/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import {
  myOwedFigures,
  requestTicket,
  useMyLedger,
  useOpenOffers,
  useMyTickets,
  type MyLedger,
  type MyTicket,
  type MyTickets,
} from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { debtText } from '../../ui/money.js';
import { BalanceText, GiroCode, Statement } from '../ledger/index.js';
import { MyOffers } from '../contingents/index.js';
import { MyRides, useMyRides } from '../../collections/rides/index.js';
import { requestErrorText, ticketPriceText } from './format.js';
import './tickets.css';

/**
 * /my-tickets (docs/product.md, Tickets and money): what the member owes, the three lists and the
 * ledger's balance and statement, all read from the device, so it works offline; with a balance
 * owed, the GiroCode to pay it with the banking app. The paid and received requests are written to
 * the device and synced.
 */
export function MyTicketsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const today = todayIn(useSiteConfig().time_zone);
  const tickets = useMyTickets(user.id, today);
  const ledger = useMyLedger(user.id);
  const offers = useOpenOffers(user.id);
  const rides = useMyRides(user, today);
  const titleId = useId();
  const language = currentLanguage();

  // Every section's data first: a section arriving later would push the ones below it (layout shift).
  if (!tickets || !ledger || !offers || !rides) return <Loading />;
  // What the member owes comes from the ledger, as on every other view (docs/architecture.md, Ledger).
  const owed = myOwedFigures(ledger, tickets.unpaid);
  const lists = [
    ['unpaid', tickets.unpaid],
    ['pending', tickets.pending],
    ['paid', tickets.paid],
  ] as const;
  return (
    <section className="page my-tickets" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('tickets.title')}</h1>
      <p
        className={owed.owedCents > 0 || owed.openPriceCount > 0 ? 'debt-total debt-total-open' : 'debt-total'}
        data-testid="unpaid-total"
      >
        <span>{t('tickets.unpaidTotal')}</span> <strong>{debtText(owed.owedCents, owed.openPriceCount, language, t)}</strong>
      </p>
      <LedgerBalance ledger={ledger} tickets={tickets} member={user} />
      <MyOffers offers={offers} userId={user.id} />
      <MyRides rides={rides} />
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
      <section className="ticket-list" aria-labelledby={`${titleId}-statement`}>
        <h2 id={`${titleId}-statement`} className="section-title">
          {t('ledger.statement')}
        </h2>
        <Statement lines={ledger.lines} />
      </section>
    </section>
  );
}

/**
 * The member's balance from the ledger and, while they owe something, the GiroCode for that amount:
 * its reference starts with their payment code and names their unpaid tickets with a known price (the shared rule
 * `paymentReference`, as GET /api/ledger/my/payment), drawn on the device so it works offline.
 */
function LedgerBalance({
  ledger,
  tickets,
  member,
}: {
  ledger: MyLedger;
  tickets: MyTickets;
  member: { id: string; username: string };
}) {
  const { t } = useTranslation();
  const owed = myOwedFigures(ledger, tickets.unpaid);
  const payable = tickets.unpaid.filter(
    (ticket) => ticket.event_title !== null && ticketChargeCents({ ...ticket, bought: true }) > 0,
  );
  const reference = paymentReference(
    member,
    payable.map((ticket) => ({ event_title: ticket.event_title ?? '', event_date: ticket.event_date ?? '' })),
  );
  return (
    <>
      <p className="ledger-balance" data-testid="ledger-balance">
        <span>{t('ledger.balance')}</span> <BalanceText cents={ledger.balanceCents} />
      </p>
      {owed.owedCents > 0 ? <GiroCode amountCents={owed.owedCents} reference={reference} /> : null}
    </>
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
