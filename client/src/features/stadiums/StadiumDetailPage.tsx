import type { EventDoc } from '@fankurve/shared';
import { todayIn } from '@fankurve/shared/dates';
import { eurosToCents, formatMoney } from '@fankurve/shared/rules/money';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { fetchStadium } from '../../api/stadiums.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { useEvents } from '../../data/index.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { eventsAtStadium } from './stadiumEvents.js';
import { sortTicketPrices } from './TicketPrices.js';
import type { StadiumWithPrices } from './useStadiums.js';
import './stadiums.css';

type Loaded =
  { status: 'loading' } | { status: 'ready'; stadium: StadiumWithPrices | null } | { status: 'failed'; error: unknown };

/** /stadiums/{id} (admin): the stadium, its ticket prices and its next and latest events. */
export function StadiumDetailPage() {
  const user = useUser();
  if (user.scope !== 'admin') return <AdminRequired />;
  return <StadiumDetail />;
}

function StadiumDetail() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const language = currentLanguage();
  const today = todayIn(useSiteConfig().time_zone);
  const events = useEvents();
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    fetchStadium(id, controller.signal)
      .then((stadium) => setLoaded({ status: 'ready', stadium }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Stadium not loaded', error);
        setLoaded({ status: 'failed', error });
      });
    return () => controller.abort();
  }, [id]);

  // The events come from the local database: they show offline too.
  const { upcoming, recent } = useMemo(() => eventsAtStadium(events ?? [], id, today), [events, id, today]);
  const back = (
    <Link to="/config?tab=stadiums" className="back-link">
      ← {t('stadiums.backToConfig')}
    </Link>
  );

  if (loaded.status === 'loading') return <Loading />;
  const stadium = loaded.status === 'ready' ? loaded.stadium : null;
  // Offline, the events still name their stadium.
  const fallbackName = [...upcoming, ...recent].find((event) => event.stadium_name)?.stadium_name ?? null;

  if (loaded.status === 'ready' && !stadium) {
    return (
      <section className="page stadium-detail">
        {back}
        <p className="empty-state" role="alert">
          {t('serverMessages.stadiumNotFound')}
        </p>
      </section>
    );
  }

  return (
    <section className="page stadium-detail" aria-labelledby="stadium-title">
      {back}
      <h1 id="stadium-title">{stadium?.stadium_name ?? fallbackName ?? t('stadiums.detailTitle')}</h1>
      {stadium ? (
        <p className="stadium-sub stadium-detail-sub">
          {stadium.team_name} · {stadium.city}
        </p>
      ) : null}
      {loaded.status === 'failed' ? (
        <p className="form-error" role="alert">
          {errorText(loaded.error, 'errors.loadStadiumsFailed')}
        </p>
      ) : null}
      {stadium ? (
        <div className="card stadium-facts-card">
          <dl className="facts">
            <div>
              <dt>{t('stadiums.address')}</dt>
              <dd>{stadium.address || '–'}</dd>
            </div>
            <div>
              <dt>{t('stadiums.capacity')}</dt>
              <dd>{new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'de-DE').format(stadium.capacity)}</dd>
            </div>
            <div>
              <dt>{t('stadiums.guestBlock')}</dt>
              <dd>{new Intl.NumberFormat(language === 'en' ? 'en-GB' : 'de-DE').format(stadium.guest_block_capacity)}</dd>
            </div>
            <div>
              <dt>{t('stadiums.ticketPrice')}</dt>
              <dd>{stadium.ticket_price === null ? '–' : formatMoney(eurosToCents(stadium.ticket_price), language)}</dd>
            </div>
          </dl>
          <h2 className="subsection-title">{t('stadiums.ticketPrices')}</h2>
          {stadium.ticketPrices.length === 0 ? (
            <p className="muted">{t('stadiums.noTicketPrices')}</p>
          ) : (
            <ul className="price-list">
              {sortTicketPrices(stadium.ticketPrices).map((option) => (
                <li key={option.id}>
                  <span className="price-type">{option.ticket_type}</span>
                  <span className="price-value">{formatMoney(eurosToCents(option.price), language)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {events === undefined ? (
        <Loading />
      ) : (
        <>
          <StadiumEventList title={t('stadiums.upcomingEvents')} empty={t('stadiums.noUpcomingEvents')} events={upcoming} />
          <StadiumEventList title={t('stadiums.recentEvents')} empty={t('stadiums.noRecentEvents')} events={recent} past />
        </>
      )}
    </section>
  );
}

function StadiumEventList({
  title,
  empty,
  events,
  past = false,
}: {
  title: string;
  empty: string;
  events: EventDoc[];
  past?: boolean;
}) {
  const language = currentLanguage();
  const headingId = past ? 'stadium-recent' : 'stadium-upcoming';
  return (
    <section aria-labelledby={headingId}>
      <h2 className="section-title" id={headingId}>
        {title}
      </h2>
      {events.length === 0 ? (
        <p className="empty-state">{empty}</p>
      ) : (
        <ul className={past ? 'plain-list stack stadium-events-past' : 'plain-list stack'}>
          {events.map((event) => (
            <li key={event.id}>
              <Link to={`/events/${encodeURIComponent(event.id)}`} className="stadium-event">
                <span className="stadium-event-title">{event.title}</span>
                <time dateTime={isoWallClock(event.date)}>{formatEventDate(event.date, language)}</time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
