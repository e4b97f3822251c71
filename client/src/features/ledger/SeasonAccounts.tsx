import { todayIn } from '@fankurve/shared/dates';
import { formatMoney } from '@fankurve/shared/rules/money';
import {
  ACCOUNTS_SEASON_MAX,
  ACCOUNTS_SEASON_MIN,
  accountsPeriod,
  checkAccountsSeason,
  parseAccountsSeason,
  seasonAccountsCsv,
  type AccountsFigures,
} from '@fankurve/shared/rules/seasonAccounts';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { fetchSeasonAccounts, type SeasonAccountsReport } from '../../api/ledger.js';
import { formatClubDay } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { downloadText } from '../../ui/download.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { Loading } from '../../ui/Loading.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import './seasonAccounts.css';

/**
 * /debts/accounts (admin, online; docs/product.md, Tickets and money; docs/architecture.md, Ledger,
 * "Season accounts"): the treasurer's cash report of a season for the annual meeting — per event
 * what was charged, collected, credited, refunded and is open; the money not tied to an event by
 * kind; the season's totals; and every member's balance at the season's end. The season is the
 * address's `?season=YYYY` (none: the current one), chosen with previous / next. The CSV is built
 * here from the same answer by the shared rule (rules/seasonAccounts.ts); printing leaves the
 * navigation and the buttons off the paper. On a phone each event is a block of labelled figures.
 */
export function SeasonAccountsPage() {
  const user = useUser();
  const { t } = useTranslation();
  if (user.scope !== 'admin') return <AdminRequired />;
  return (
    <NeedsConnection title={t('ledger.accounts.title')}>
      <SeasonAccounts />
    </NeedsConnection>
  );
}

type State = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; report: SeasonAccountsReport };

function SeasonAccounts() {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const today = todayIn(useSiteConfig().time_zone);
  const current = checkAccountsSeason(undefined, today);
  const currentSeason = current.ok ? current.value : ACCOUNTS_SEASON_MIN;
  const [query, setQuery] = useSearchParams();
  const asked = query.get('season');
  const season = (asked === null ? null : parseAccountsSeason(asked)) ?? currentSeason;
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    fetchSeasonAccounts(season, controller.signal).then(
      (report) => setState({ kind: 'ready', report }),
      (failure: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'failed', message: errorText(failure) });
      },
    );
    return () => controller.abort();
  }, [season]);

  const chooseSeason = (year: number) => {
    const next = new URLSearchParams(query);
    if (year === currentSeason) next.delete('season');
    else next.set('season', String(year));
    setQuery(next, { replace: true });
  };

  const period = accountsPeriod(season);
  let body: ReactNode;
  if (state.kind === 'loading') body = <Loading />;
  else if (state.kind === 'failed')
    body = (
      <p className="form-error" role="alert">
        {`${t('ledger.accounts.loadFailed')} ${state.message}`}
      </p>
    );
  else body = <Report report={state.report} />;

  return (
    <section className="page season-accounts" aria-labelledby={titleId}>
      <Link className="back-link no-print" to="/debts">
        ← {t('ledger.accounts.back')}
      </Link>
      <h1 id={titleId}>{t('ledger.accounts.heading', { season: period.season })}</h1>
      <p className="accounts-period">
        {t('ledger.accounts.period', {
          from: formatClubDay(period.from, language),
          to: formatClubDay(period.to, language),
        })}
      </p>
      <nav className="accounts-seasons no-print" aria-label={t('ledger.accounts.season')}>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={season <= ACCOUNTS_SEASON_MIN}
          onClick={() => chooseSeason(season - 1)}
        >
          <span aria-hidden="true">‹ </span>
          <span className="sr-only">{t('ledger.accounts.previous')} </span>
          {accountsPeriod(Math.max(season - 1, ACCOUNTS_SEASON_MIN)).season}
        </button>
        {season === currentSeason ? null : (
          <button type="button" className="button button-ghost button-small" onClick={() => chooseSeason(currentSeason)}>
            {t('ledger.accounts.current')}
          </button>
        )}
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={season >= ACCOUNTS_SEASON_MAX}
          onClick={() => chooseSeason(season + 1)}
        >
          <span className="sr-only">{t('ledger.accounts.next')} </span>
          {accountsPeriod(Math.min(season + 1, ACCOUNTS_SEASON_MAX)).season}
          <span aria-hidden="true"> ›</span>
        </button>
      </nav>
      <p className="muted accounts-intro">{t('ledger.accounts.intro')}</p>
      {body}
    </section>
  );
}

/** The report of one season, its CSV and the print button. */
function Report({ report }: { report: SeasonAccountsReport }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const money = (cents: number) => formatMoney(cents, language);

  const download = () =>
    downloadText(
      `kassenbericht-${report.season.replace('/', '-')}.csv`,
      seasonAccountsCsv(
        {
          header: [
            t('ledger.accounts.part'),
            t('ledger.accounts.item'),
            t('ledger.accounts.day'),
            t('ledger.accounts.entries'),
            t('ledger.accounts.charged'),
            t('ledger.accounts.collected'),
            t('ledger.accounts.credited'),
            t('ledger.accounts.refunded'),
            t('ledger.accounts.open'),
          ],
          event: t('ledger.accounts.csvEvent'),
          other: t('ledger.accounts.csvOther'),
          total: t('ledger.accounts.total'),
          balance: t('ledger.accounts.csvBalance'),
          kinds: {
            charge: t('ledger.kinds.charge'),
            payment: t('ledger.kinds.payment'),
            credit: t('ledger.kinds.credit'),
            refund: t('ledger.kinds.refund'),
          },
          unknownMember: t('ledger.accounts.unknownMember'),
        },
        report,
      ),
    );

  return (
    <>
      <div className="accounts-actions no-print">
        <button type="button" className="button button-primary" onClick={download}>
          {t('ledger.accounts.download')}
        </button>
        <button type="button" className="button button-secondary" onClick={() => window.print()}>
          {t('ledger.accounts.print')}
        </button>
      </div>
      <EventsTable report={report} />
      <Section title={t('ledger.accounts.otherTitle')}>
        <table className="accounts-table" data-testid="accounts-other">
          <thead>
            <tr>
              <th scope="col">{t('ledger.accounts.kind')}</th>
              <th scope="col" className="num">
                {t('ledger.accounts.entries')}
              </th>
              <th scope="col" className="num">
                {t('ledger.accounts.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {report.other.map((line) => (
              <tr key={line.kind} data-kind={line.kind}>
                <th scope="row">{t(`ledger.kinds.${line.kind}`)}</th>
                <td className="num">{line.entries}</td>
                <td className="num">{money(line.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section title={t('ledger.accounts.totalsTitle')} hint={t('ledger.accounts.openHint')}>
        <table className="accounts-table accounts-totals" data-testid="accounts-totals">
          <tbody>
            {FIGURES.map((figure) => (
              <tr key={figure} data-figure={figure} className={figure === 'open' ? 'accounts-total-open' : undefined}>
                <th scope="row">{t(`ledger.accounts.${figure}`)}</th>
                <td className="num">{money(report.totals[figure])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Section
        title={t('ledger.accounts.balancesTitle', { date: formatClubDay(report.to, language) })}
        hint={t('ledger.accounts.balancesHint')}
      >
        {report.balances.length === 0 ? (
          <p className="muted">{t('ledger.accounts.balancesEmpty')}</p>
        ) : (
          <table className="accounts-table" data-testid="accounts-balances">
            <thead>
              <tr>
                <th scope="col">{t('ledger.accounts.member')}</th>
                <th scope="col" className="num">
                  {t('ledger.accounts.balance')}
                </th>
              </tr>
            </thead>
            <tbody>
              {report.balances.map((line) => (
                <tr key={line.user_id} data-member={line.user_id}>
                  <th scope="row">{shownName(line.username, language) ?? t('ledger.accounts.unknownMember')}</th>
                  <td className={line.open > 0 ? 'num accounts-owed' : 'num accounts-credit'}>{money(line.open)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}

const FIGURES = ['charged', 'collected', 'credited', 'refunded', 'open'] as const satisfies readonly (keyof AccountsFigures)[];

/** The per-event table: a table on a wide screen and on paper, a block of labelled figures per event on a phone. */
function EventsTable({ report }: { report: SeasonAccountsReport }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  return (
    <Section title={t('ledger.accounts.eventsTitle')} hint={t('ledger.accounts.eventsHint')}>
      {report.events.length === 0 ? (
        <p className="muted">{t('ledger.accounts.eventsEmpty')}</p>
      ) : (
        <table className="accounts-table accounts-events" data-testid="accounts-events">
          <thead>
            <tr>
              <th scope="col">{t('ledger.accounts.event')}</th>
              {FIGURES.map((figure) => (
                <th scope="col" className="num" key={figure}>
                  {t(`ledger.accounts.${figure}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {report.events.map((event) => (
              <tr key={event.event_id} data-event={event.event_id}>
                <th scope="row">
                  <span className="accounts-event-title">{event.title || t('ledger.accounts.untitled')}</span>
                  {event.date ? <small className="accounts-event-day">{formatClubDay(event.date, language)}</small> : null}
                </th>
                {FIGURES.map((figure) => (
                  <td className="num" key={figure} data-figure={figure}>
                    <span className="accounts-label">{t(`ledger.accounts.${figure}`)}</span>
                    {formatMoney(event[figure], language)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  );
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className="card accounts-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
      {hint ? <p className="muted accounts-hint">{hint}</p> : null}
    </section>
  );
}
