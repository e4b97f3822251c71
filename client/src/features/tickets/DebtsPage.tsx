import { todayIn } from '@fankurve/shared';
import { csvAmount, toCsv } from '@fankurve/shared/rules/csv';
import { debtsCsv, formatMoney } from '@fankurve/shared';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { Loading } from '../../ui/Loading.js';
import { SlicedItems, SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { downloadText } from '../../ui/download.js';
import { fetchDebts, type DebtOverview } from '../../api/tickets.js';
import { debtText } from '../../ui/money.js';
import { Balances, useBalances, useLedgerChanges } from '../ledger/index.js';
import { ticketPriceText } from './format.js';
import './tickets.css';

/**
 * /debts (admin; docs/product.md, Screens and Tickets and money): every member's balance in the
 * ledger with the statement behind it and the form to book payments and charges (features/ledger),
 * then every unpaid ticket; debts per member and the unpaid tickets as CSV (the shared writer with
 * its formula guard). A price still open is shown and exported as "price open" and counted apart,
 * never as 0,00 €.
 */
export function DebtsPage() {
  const user = useUser();
  const { t } = useTranslation();
  if (user.scope !== 'admin') return <AdminRequired />;
  return (
    <NeedsConnection title={t('tickets.debtsTitle')}>
      <Debts />
    </NeedsConnection>
  );
}

function Debts() {
  const { t } = useTranslation();
  const titleId = useId();
  const language = currentLanguage();
  const [data, setData] = useState<DebtOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const today = todayIn(useSiteConfig().time_zone);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((n) => n + 1), []);

  // Loaded again after the admin's own bookings and whenever the server says the ledger or tickets
  // changed, so the total never lags behind the balances beneath it.
  useEffect(() => {
    const controller = new AbortController();
    fetchDebts(controller.signal).then(setData, (failure: unknown) => {
      if (!controller.signal.aborted) setError(errorText(failure));
    });
    return () => controller.abort();
  }, [version]);

  useLedgerChanges(reload);
  const balances = useBalances();
  const unpaid = useRenderSlices<HTMLUListElement>(data?.unpaidTickets.length ?? 0);

  if (error) return <p className="form-error" role="alert">{`${t('tickets.loadFailed')} ${error}`}</p>;
  // The sections show together: the balances arriving later would push the unpaid tickets down.
  if (!data || (!balances.members && !balances.error)) return <Loading />;
  // The ledger's balance per member, credit as a negative amount (shared rule `debtsCsv`).
  const exportDebts = () =>
    downloadText(
      `schulden-${today}.csv`,
      debtsCsv(
        [
          t('tickets.username'),
          t('tickets.email'),
          t('tickets.totalDebt'),
          t('tickets.unpaidCount'),
          t('tickets.openPriceCount'),
        ],
        data.debts,
      ),
    );
  const exportTickets = () =>
    downloadText(
      `unbezahlte-tickets-${today}.csv`,
      toCsv(
        [
          t('tickets.username'),
          t('tickets.email'),
          t('tickets.guestName'),
          t('tickets.event'),
          t('tickets.date'),
          t('tickets.location'),
          t('tickets.price'),
          t('tickets.paidRequestedShort'),
        ],
        data.unpaidTickets.map((ticket) => [
          ticket.username,
          ticket.email,
          ticket.guest_name,
          ticket.event_title,
          ticket.event_date.slice(0, 16),
          ticket.event_location,
          ticket.price_open || ticket.priceCents === null ? t('tickets.priceOpen') : csvAmount(ticket.priceCents),
          ticket.paid_requested ? t('tickets.csvYes') : t('tickets.csvNo'),
        ]),
      ),
    );

  return (
    <section className="page debts-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('tickets.debtsTitle')}</h1>
      <p className="debt-total" data-testid="debts-total">
        <span>{t('tickets.total')}</span> <strong>{debtText(data.totalCents, data.openPriceCount, language, t)}</strong>
        {data.creditTotalCents > 0 ? (
          <small className="muted" data-testid="debts-credit-total">
            {' '}
            {t('tickets.creditTotal', { amount: formatMoney(data.creditTotalCents, language) })}
          </small>
        ) : null}
      </p>
      <div className="debt-exports">
        <button type="button" className="button button-secondary button-small" onClick={exportDebts}>
          {t('tickets.exportDebts')}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={exportTickets}>
          {t('tickets.exportTickets')}
        </button>
      </div>

      <Balances balances={balances} onChanged={reload} />

      <h2 className="section-title">{t('tickets.unpaidTickets')}</h2>
      {data.unpaidTickets.length === 0 ? (
        <p className="muted">{t('tickets.noDebts')}</p>
      ) : (
        <ul className="plain-list ticket-items" ref={unpaid.listRef}>
          <SlicedItems items={data.unpaidTickets} slices={unpaid} keyOf={(ticket) => ticket.id}>
            {(ticket) => (
              <li className={ticket.overdue ? 'card ticket-item ticket-overdue' : 'card ticket-item'}>
                <div className="ticket-head">
                  <h3 className="ticket-title">
                    <Link to={`/events/${ticket.event_id}`}>{ticket.event_title}</Link>
                  </h3>
                  <span className="ticket-price">
                    {ticketPriceText(
                      { price_cents: ticket.priceCents, is_free: ticket.is_free, is_price_tbd: ticket.is_price_tbd },
                      language,
                      t,
                    )}
                  </span>
                </div>
                <p className="ticket-meta muted">
                  {formatEventDate(ticket.event_date, language)} · {ticket.event_location}
                </p>
                <p className="ticket-guest">
                  {shownName(ticket.username, language)}
                  {ticket.guest_name ? ` · ${t('tickets.guest', { name: ticket.guest_name })}` : ''}
                  {ticket.paid_requested ? <span className="badge badge-amber">{t('tickets.paidRequestedShort')}</span> : null}
                </p>
              </li>
            )}
          </SlicedItems>
        </ul>
      )}
      <SlicesRoom slices={unpaid} />
    </section>
  );
}
