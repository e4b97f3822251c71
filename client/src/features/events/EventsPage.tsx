import { todayIn } from '@fankurve/shared/dates';
import { checkAnswerDeadlineOpen, checkEventOpenForAnswers } from '@fankurve/shared/rules/attendance';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import {
  holdsEventRows,
  useAttendeesOfEvents,
  useEvents,
  useLoadedEvents,
  useOpenOffers,
  useSnapshot,
  useSyncState,
} from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { SlicesRoom, useRenderSlices } from '../../ui/renderSlices.js';
import { Announcements, useAnnouncements } from '../../collections/announcements/index.js';
import { PollList, usePollList } from '../polls/index.js';
import { SyncMatchesButton } from '../matches/index.js';
import { CreateEventDialog } from './CreateEventDialog.js';
import { EventCard } from './EventCard.js';
import { EventFilters } from './EventFilters.js';
import { filterEvents, readFilters, seasonsOf, writeFilters, type EventFilters as Filters } from './filters.js';
import { orderEvents } from './order.js';
import { useClubNow } from './useClubNow.js';
import { eventsSnapshot, rememberedEventsOf, type EventsSnapshot } from './snapshot.js';
import { attendanceOf, summarizeAttendance } from './summary.js';
import './events.css';

const NO_SEASONS: string[] = [];

/**
 * /events: the events of the local database for the chosen season and location (kept in the URL query),
 * upcoming first, past ones faded below; a member creates events here (online).
 */
export function EventsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const liveEvents = useEvents();
  const online = useSyncState('online');
  const initialSyncDone = useSyncState('initialSyncDone');
  const language = currentLanguage();
  const [query, setQuery] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const navigate = useNavigate();
  // The club's calendar day decides what is past and which season is the current one; its wall clock which answer deadlines passed.
  const timeZone = useSiteConfig().time_zone;
  const today = todayIn(timeZone);
  const clubNow = useClubNow(timeZone);

  // A warm start paints the last list at once and the device database replaces it when it has opened.
  const [live, setLive] = useState<EventsSnapshot | undefined>(undefined);
  const remembered = useSnapshot('eventsList', user.id, live);
  const liveSeasons = useMemo(() => liveEvents && seasonsOf(liveEvents), [liveEvents]);
  const seasons = liveSeasons ?? remembered?.seasons ?? NO_SEASONS;
  const filters = useMemo(() => readFilters(query, seasons, today), [query, seasons, today]);
  const events = liveEvents ?? rememberedEventsOf(remembered, filters.season);
  const { upcoming, past } = useMemo(() => orderEvents(filterEvents(events ?? [], filters), today), [events, filters, today]);

  // Thousands of rows: only those of the shown events, read after the events, so the cards show
  // first and their counts follow.
  const shownIds = useMemo(
    () => (liveEvents ? [...upcoming, ...past].map((event) => event.id) : undefined),
    [liveEvents, upcoming, past],
  );
  const attendees = useAttendeesOfEvents(shownIds);
  const loadedEvents = useLoadedEvents();
  // Open offers of returned tickets mark their event's card (they run out: the member must see them).
  const openOffers = useOpenOffers(user.id);
  const offeredEvents = useMemo(
    () => new Set((openOffers ?? []).filter((offer) => offer.response === null).map((offer) => offer.event_id)),
    [openOffers],
  );
  const liveSummary = useMemo(() => {
    if (!attendees || !shownIds) return undefined;
    const countedByServer = [...upcoming, ...past].filter((event) => !holdsEventRows(event, today, loadedEvents));
    return summarizeAttendance(attendees, user.id, shownIds, countedByServer);
  }, [attendees, user.id, shownIds, upcoming, past, today, loadedEvents]);
  // Kept for the next start (the snapshot holds the counts of the events shown last).
  useEffect(() => {
    if (liveEvents && liveSummary) setLive(eventsSnapshot(liveEvents, filters.season, seasons, liveSummary));
  }, [liveEvents, liveSummary, filters.season, seasons]);
  const summary = useMemo(() => liveSummary ?? new Map(remembered?.attendance ?? []), [liveSummary, remembered]);
  // The upcoming cards first, the past ones (faded, below) after: a season's cards in slices.
  const slices = useRenderSlices<HTMLDivElement>(upcoming.length + past.length);
  // The news and polls above the list, remembered with it: a warm start paints them together.
  const announcements = useSnapshot('announcements', user.id, useAnnouncements());
  const polls = useSnapshot('polls', user.id, usePollList(user.id));
  const { rendered } = slices;
  const pastRendered = Math.max(0, rendered - upcoming.length);

  // The news and polls above the list come with it: arriving later, they would push it down.
  if (events === undefined || announcements === undefined || polls === undefined) return <Loading />;

  const changeFilters = (next: Partial<Filters>) =>
    setQuery(writeFilters(query, { ...filters, ...next }, seasons, today), { replace: true });

  const card = (event: (typeof upcoming)[number], isPast: boolean) => (
    <EventCard
      key={event.id}
      event={event}
      attendance={attendanceOf(summary, event.id)}
      countsLoading={attendees === undefined && !summary.has(event.id)}
      past={isPast}
      answersClosed={!checkEventOpenForAnswers(event.date, today).ok}
      deadlinePassed={!checkAnswerDeadlineOpen(event.answer_deadline, clubNow, user.scope === 'admin').ok}
      clubNow={clubNow}
      language={language}
      userId={user.id}
      offered={offeredEvents.has(event.id)}
    />
  );

  return (
    <section className="page events-page" aria-labelledby="events-title">
      <div className="title-row">
        <h1 id="events-title">{t('events.title')}</h1>
        <div className="page-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => setCreating(true)}
            disabled={!online}
            aria-describedby={online ? undefined : 'create-offline-hint'}
          >
            {t('events.newEvent')}
          </button>
          {user.scope === 'admin' ? <SyncMatchesButton /> : null}
          {online ? null : (
            <small id="create-offline-hint" className="page-actions-hint">
              {t('events.newEventOffline')}
            </small>
          )}
        </div>
      </div>
      <Announcements announcements={announcements} />
      <PollList polls={polls} />
      {events.length === 0 ? (
        initialSyncDone ? (
          <p className="empty-state">{t('events.empty')}</p>
        ) : online ? (
          // Nothing on the device yet and the first sync still runs: not "no events".
          <div className="loading events-loading" role="status">
            <div className="spinner" aria-hidden="true" />
            <span>{t('events.loadingFirstSync')}</span>
          </div>
        ) : (
          <p className="empty-state" role="status">
            {t('events.waitingForConnection')}
          </p>
        )
      ) : (
        <>
          <EventFilters seasons={seasons} filters={filters} onChange={changeFilters} />
          {upcoming.length === 0 && past.length === 0 ? (
            <p className="empty-state">{t('events.noneForFilter')}</p>
          ) : (
            <div ref={slices.listRef}>
              {upcoming.length > 0 ? (
                <ul className="card-list" aria-label={t('events.upcoming')}>
                  {upcoming.slice(0, rendered).map((event) => card(event, false))}
                </ul>
              ) : (
                <p className="empty-state">{t('events.noUpcoming')}</p>
              )}
              {pastRendered > 0 ? (
                <>
                  <h2 className="section-title" id="events-past">
                    {t('events.past')}
                  </h2>
                  <ul className="card-list past-list" aria-labelledby="events-past">
                    {past.slice(0, pastRendered).map((event) => card(event, true))}
                  </ul>
                </>
              ) : null}
            </div>
          )}
          <SlicesRoom slices={slices} />
        </>
      )}
      {creating ? (
        <CreateEventDialog
          onClose={() => setCreating(false)}
          // The new event may not show under the chosen filters: open it (it arrives through sync).
          onCreated={(id) => void navigate(`/events/${encodeURIComponent(id)}`, { state: { created: true } })}
        />
      ) : null}
    </section>
  );
}
