import { todayIn } from '@fankurve/shared/dates';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useUser } from '../../app/session.js';
import { useSiteConfig } from '../../app/siteConfig.js';
import { useAttendees, useEvents } from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { EventCard } from './EventCard.js';
import { orderEvents } from './order.js';
import { attendanceOf, summarizeAttendance } from './summary.js';

/** /events: every event from the local database, upcoming first, past ones faded below. */
export function EventsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const events = useEvents();
  const attendees = useAttendees();
  const language = currentLanguage();
  // The club's calendar day decides what is past (SPEC 4: upcoming if the date is today or later).
  const today = todayIn(useSiteConfig().time_zone);

  const { upcoming, past } = useMemo(() => orderEvents(events ?? [], today), [events, today]);
  const summary = useMemo(() => summarizeAttendance(attendees ?? [], user.id), [attendees, user.id]);

  if (events === undefined) return <Loading />;

  const card = (event: (typeof upcoming)[number], isPast: boolean) => (
    <EventCard
      key={event.id}
      event={event}
      attendance={attendanceOf(summary, event.id)}
      countsLoading={attendees === undefined}
      past={isPast}
      language={language}
      userId={user.id}
    />
  );

  return (
    <section className="page events-page" aria-labelledby="events-title">
      <h1 id="events-title">{t('events.title')}</h1>
      {events.length === 0 ? (
        <p className="empty-state">{t('events.empty')}</p>
      ) : (
        <>
          {upcoming.length > 0 ? (
            <ul className="event-list" aria-label={t('events.upcoming')}>
              {upcoming.map((event) => card(event, false))}
            </ul>
          ) : (
            <p className="empty-state">{t('events.noUpcoming')}</p>
          )}
          {past.length > 0 ? (
            <>
              <h2 className="section-title" id="events-past">
                {t('events.past')}
              </h2>
              <ul className="event-list event-list-past" aria-labelledby="events-past">
                {past.map((event) => card(event, true))}
              </ul>
            </>
          ) : null}
        </>
      )}
    </section>
  );
}
