import { todayIn } from '@fankurve/shared/dates';
import {
  averageMember,
  checkStatsSeason,
  seasonLabel,
  seasonYearOf,
  type EventSeasonStats,
  type MemberSeasonStats,
  type SeasonStats,
} from '@fankurve/shared/rules/stats';
import { useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useEvents } from '../../data/index.js';
import { formatClubDay, formatInstant } from '../../i18n/dates.js';
import { currentLanguage } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { Loading } from '../../ui/Loading.js';
import { SlicedItems, SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { useOnline } from '../../ui/NeedsConnection.js';
import { ChartCanvas } from './ChartCanvas.js';
import { attendanceChart, MEMBERS_IN_CHART, membersChart, membersChartHeight, membersInChart, ownChart } from './charts.js';
import { useSeasonStats } from './useSeasonStats.js';
import './stats.css';

/**
 * /stats (docs/product.md, Statistics): a season in numbers. The club's going and maybe per event,
 * each member's home and away matches, and the member's own season beside the average member; each
 * chart with its numbers as a table. The current season is counted on the device (offline too),
 * older ones come from the server (online, or what was loaded earlier in this app session).
 */
export function StatsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const online = useOnline();
  const titleId = useId();
  const seasonId = useId();
  const today = todayIn(useSiteConfig().time_zone);
  const currentSeason = seasonYearOf(today);
  const [query, setQuery] = useSearchParams();
  const asked = query.get('season');
  const checked = asked === null ? null : checkStatsSeason(asked, today);
  const season = checked?.ok ? checked.value : currentSeason;
  const events = useEvents();
  const seasons = useMemo(() => {
    // The current season and every earlier one the club has events in (the device keeps every event).
    const years = new Set([currentSeason, season]);
    for (const event of events ?? []) {
      const year = Number(event.season.slice(0, 4));
      if (year <= currentSeason) years.add(year);
    }
    return [...years].sort((a, b) => b - a);
  }, [events, currentSeason, season]);
  const state = useSeasonStats(user.id, season, currentSeason, today);
  const label = seasonLabel(season);

  const chooseSeason = (year: number) => {
    const next = new URLSearchParams(query);
    if (year === currentSeason) next.delete('season');
    else next.set('season', String(year));
    setQuery(next, { replace: true });
  };

  let body: ReactNode;
  if (state.kind === 'loading') body = <Loading />;
  else if (state.kind === 'needsConnection') {
    body = (
      <div className="needs-connection-note" role="status" data-testid="stats-needs-connection">
        <p>{t('stats.needsConnection', { season: label })}</p>
      </div>
    );
  } else if (state.kind === 'failed') {
    body = <p className="form-error" role="alert">{`${t('stats.loadFailed')} ${state.message}`}</p>;
  } else {
    body = (
      <>
        {state.source === 'server' && !online && state.at ? (
          <p className="offline-hint" role="status">
            {t('stats.offlineCopy', { time: formatInstant(state.at, currentLanguage()) })}
          </p>
        ) : null}
        <SeasonFigures stats={state.stats} userId={user.id} season={label} />
      </>
    );
  }

  return (
    <section className="page stats-page" aria-labelledby={titleId}>
      <h1 id={titleId}>{t('stats.title')}</h1>
      <div className="stats-season">
        <label htmlFor={seasonId}>{t('stats.season')}</label>
        <select id={seasonId} value={season} onChange={(event) => chooseSeason(Number(event.target.value))}>
          {seasons.map((year) => (
            <option key={year} value={year}>
              {year === currentSeason ? t('stats.seasonCurrent', { season: seasonLabel(year) }) : seasonLabel(year)}
            </option>
          ))}
        </select>
      </div>
      <p className="muted stats-intro">
        {t('stats.intro')} {season === currentSeason ? t('stats.fromDevice') : null}
      </p>
      {body}
    </section>
  );
}

function SeasonFigures({ stats, userId, season }: { stats: SeasonStats; userId: string; season: string }) {
  const own = stats.members.find((member) => member.user_id === userId);
  return (
    <>
      {own ? <OwnSeason own={own} members={stats.members} season={season} /> : <NotListed />}
      <Attendance events={stats.events} season={season} />
      <Members members={stats.members} userId={userId} season={season} />
    </>
  );
}

/** The locale of numbers in the charts and tables (a decimal comma in German). */
const localeOf = (language: string): string => (language === 'de' ? 'de-DE' : 'en-GB');

/** A column heading, abbreviated on a narrow screen (the full word stays its name). */
function Short({ long, short }: { long: string; short: string }) {
  if (long === short) return <>{long}</>;
  return (
    <>
      <span className="stats-long">{long}</span>
      <abbr className="stats-short" title={long}>
        {short}
      </abbr>
    </>
  );
}

function NotListed() {
  const { t } = useTranslation();
  return <p className="muted">{t('stats.notListed')}</p>;
}

/** A chart's section: its heading, the chart and its numbers as a table behind "As a table". */
function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const headingId = useId();
  return (
    <section className="stats-section" aria-labelledby={headingId} data-testid={testId}>
      <h2 id={headingId} className="section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

function AsTable({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <details className="stats-table">
      <summary>{t('stats.asTable')}</summary>
      <div className="stats-table-scroll">{children}</div>
    </details>
  );
}

function OwnSeason({ own, members, season }: { own: MemberSeasonStats; members: MemberSeasonStats[]; season: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const average = useMemo(() => averageMember(members), [members]);
  const decimal = new Intl.NumberFormat(localeOf(language), {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  const config = useMemo(
    () =>
      ownChart(
        own,
        average,
        {
          home: t('stats.home'),
          away: t('stats.away'),
          other: t('stats.other'),
          you: t('stats.you'),
          average: t('stats.average'),
        },
        localeOf(language),
      ),
    [own, average, t, language],
  );
  const kinds = ['home', 'away', 'other'] as const;
  return (
    <Section title={t('stats.ownTitle')} testId="stats-own">
      <p className="stats-own-summary" data-testid="stats-own-summary">
        <strong>{t('stats.ownSummary', { home: own.home, away: own.away, other: own.other })}</strong>
        <span className="muted">{t('stats.ownTickets', { count: own.tickets })}</span>
      </p>
      <ChartCanvas config={config} label={t('stats.ownChart')} height={220} testId="stats-own-chart" />
      <AsTable>
        <table className="stats-numbers">
          <caption>{t('stats.ownCaption', { season })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.kind')}</th>
              <th scope="col" className="num">
                {t('stats.you')}
              </th>
              <th scope="col" className="num">
                {t('stats.average')}
              </th>
            </tr>
          </thead>
          <tbody>
            {kinds.map((kind) => (
              <tr key={kind}>
                <th scope="row">{t(`stats.${kind}`)}</th>
                <td className="num">{own[kind]}</td>
                <td className="num">{decimal.format(average[kind])}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">{t('stats.tickets')}</th>
              <td className="num">{own.tickets}</td>
              <td className="num">
                {decimal.format(members.reduce((sum, member) => sum + member.tickets, 0) / Math.max(1, members.length))}
              </td>
            </tr>
            <tr>
              <th scope="row">{t('stats.travelled')}</th>
              <td className="num">{own.travelled}</td>
              <td className="num">
                {decimal.format(members.reduce((sum, member) => sum + member.travelled, 0) / Math.max(1, members.length))}
              </td>
            </tr>
          </tbody>
        </table>
        <p className="muted stats-note">{t('stats.averageOf', { count: members.length })}</p>
      </AsTable>
    </Section>
  );
}

function Attendance({ events, season }: { events: EventSeasonStats[]; season: string }) {
  const { t } = useTranslation();
  const eventRows = useRenderSlices<HTMLTableSectionElement>(events.length);
  const language = currentLanguage();
  const config = useMemo(
    () =>
      attendanceChart(
        events,
        {
          going: t('stats.going'),
          maybe: t('stats.maybe'),
          day: (date) => formatClubDay(date, language),
        },
        localeOf(language),
      ),
    [events, t, language],
  );
  return (
    <Section title={t('stats.attendanceTitle')} testId="stats-attendance">
      {events.length === 0 ? (
        <p className="muted">{t('stats.noEvents')}</p>
      ) : (
        <>
          <ChartCanvas
            config={config}
            label={t('stats.attendanceChart', { season })}
            height={260}
            testId="stats-attendance-chart"
          />
          <AsTable>
            <table className="stats-numbers">
              <caption>{t('stats.attendanceCaption', { season })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('stats.event')}</th>
                  <th scope="col" className="num">
                    {t('stats.going')}
                  </th>
                  <th scope="col" className="num">
                    {t('stats.maybe')}
                  </th>
                </tr>
              </thead>
              <tbody ref={eventRows.listRef}>
                <SlicedItems items={events} slices={eventRows} keyOf={(event) => event.event_id}>
                  {(event) => (
                    <tr data-event-id={event.event_id}>
                      <th scope="row" className="stats-name">
                        {event.title}
                        <span className="stats-date">{formatClubDay(event.date, language)}</span>
                      </th>
                      <td className="num">{event.going}</td>
                      <td className="num">{event.maybe}</td>
                    </tr>
                  )}
                </SlicedItems>
              </tbody>
            </table>
            <SlicesRoom slices={eventRows} />
          </AsTable>
        </>
      )}
    </Section>
  );
}

function Members({ members, userId, season }: { members: MemberSeasonStats[]; userId: string; season: string }) {
  const { t } = useTranslation();
  const memberRows = useRenderSlices<HTMLTableSectionElement>(members.length);
  const language = currentLanguage();
  // The chart's labels are the names as shown (an erased member's pseudonym in the reader's language).
  const charted = useMemo(
    () => membersInChart(members).map((member) => ({ ...member, username: shownName(member.username, language) })),
    [members, language],
  );
  const config = useMemo(
    () => membersChart(charted, { away: t('stats.away'), home: t('stats.home') }, localeOf(language)),
    [charted, t, language],
  );
  return (
    <Section title={t('stats.membersTitle')} testId="stats-members">
      {charted.length === 0 ? (
        <p className="muted">{t('stats.noMatches')}</p>
      ) : (
        <>
          <ChartCanvas
            config={config}
            label={t('stats.membersChart', { season })}
            height={membersChartHeight(charted.length)}
            testId="stats-members-chart"
          />
          {charted.length < members.length ? (
            <p className="muted stats-note">
              {t('stats.membersPartial', { shown: charted.length, total: members.length, max: MEMBERS_IN_CHART })}
            </p>
          ) : null}
        </>
      )}
      <AsTable>
        <table className="stats-numbers">
          <caption>{t('stats.membersCaption', { season })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.name')}</th>
              <th scope="col" className="num">
                <Short long={t('stats.away')} short={t('stats.awayShort')} />
              </th>
              <th scope="col" className="num">
                {t('stats.home')}
              </th>
              <th scope="col" className="num">
                <Short long={t('stats.other')} short={t('stats.otherShort')} />
              </th>
              <th scope="col" className="num">
                {t('stats.tickets')}
              </th>
            </tr>
          </thead>
          <tbody ref={memberRows.listRef}>
            <SlicedItems items={members} slices={memberRows} keyOf={(member) => member.user_id}>
              {(member) => {
                const own = member.user_id === userId;
                return (
                  <tr className={own ? 'stats-own-row' : undefined} data-user-id={member.user_id}>
                    <th scope="row" className="stats-name">
                      {shownName(member.username, language)}
                      {own ? <span className="badge stats-you">{t('stats.you')}</span> : null}
                    </th>
                    <td className="num">{member.away}</td>
                    <td className="num">{member.home}</td>
                    <td className="num">{member.other}</td>
                    <td className="num">{member.tickets}</td>
                  </tr>
                );
              }}
            </SlicedItems>
          </tbody>
        </table>
        <SlicesRoom slices={memberRows} />
      </AsTable>
    </Section>
  );
}
