import { todayIn } from '@fankurve/shared/dates';
import { checkAnswerDeadlineOpen, checkEventOpenForAnswers } from '@fankurve/shared/rules/attendance';
import { canManageEvent } from '@fankurve/shared/rules/events';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { useAttendees, useEvent, useEventRows, useMembers, useSyncState, useTransports } from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { Loading } from '../../ui/Loading.js';
import { AttendeeTable } from './AttendeeTable.js';
import { EventHeader } from './EventHeader.js';
import { EventRowsNotice } from './EventRowsNotice.js';
import './eventDetail.css';
import { Guests } from './Guests.js';
import { memberNames } from './attendeeTable.js';
import { OwnAnswer } from './OwnAnswer.js';
import type { Access } from './shared.js';
import { Transports } from './Transports.js';
import { CommentSection } from '../comments/index.js';
import { ContingentSection } from '../contingents/index.js';
import { useClubNow } from '../events/index.js';
import { Reminders } from './Reminders.js';
import { Polls } from '../polls/index.js';
import { Rides } from '../../collections/rides/index.js';

/**
 * /events/{id}: everything is read from the local database, so the page works
 * offline; the member's own answers and guests are written there too. Admin work (and edit / delete /
 * image by the creator) is online REST whose result arrives through sync.
 */
export function EventDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const user = useUser();
  const online = useSyncState('online');
  const syncing = useSyncState('syncing');
  const event = useEvent(id);
  const attendees = useAttendees(id);
  const members = useMembers();
  const transports = useTransports(id);
  const language = currentLanguage();
  // The club's calendar day decides what is past, as on the server; its wall clock whether the answer deadline passed.
  const timeZone = useSiteConfig().time_zone;
  const today = todayIn(timeZone);
  const clubNow = useClubNow(timeZone);
  // The signed-in member's own name is known from the session, also before the members have synced.
  const names = useMemo(
    () => new Map([[user.id, user.username], ...memberNames(members ?? [], language)]),
    [members, user.id, user.username, language],
  );

  const awaitingCreated = useAwaitCreated();
  // An older season's event: its rows and comments are fetched when opened online (docs/architecture.md, What a device keeps).
  const eventRows = useEventRows(event, today);

  // The page's device queries answer within moments of each other: one render with all of them,
  // not one per answer (docs/architecture.md, Client data layer).
  if (event === undefined || attendees === undefined || members === undefined || transports === undefined) return <Loading />;
  // A first visit straight to this address, or an event just created: it may still be on its way down.
  if (event === null && (syncing || awaitingCreated)) return <Loading />;
  if (event === null) {
    return (
      <section className="page event-detail detail-missing">
        <div className="card empty-card">
          <h1>{t('eventDetail.notFoundTitle')}</h1>
          <p>{t('eventDetail.notFoundText')}</p>
          <Link className="button button-primary" to="/events">
            {t('eventDetail.backToEvents')}
          </Link>
        </div>
      </section>
    );
  }

  const isAdmin = user.scope === 'admin';
  const access: Access = {
    userId: user.id,
    scope: user.scope,
    isAdmin,
    canManage: canManageEvent(user, event),
    online,
    answersClosed: !checkEventOpenForAnswers(event.date, today).ok,
    deadlinePassed: !checkAnswerDeadlineOpen(event.answer_deadline, clubNow, isAdmin).ok,
    clubNow,
  };
  const rows = attendees ?? [];
  const own = rows.find((row) => row.user_id === user.id) ?? null;

  return (
    <div className="page event-detail">
      <Link className="back-link" to="/events">
        ← {t('eventDetail.backToEvents')}
      </Link>
      <EventHeader
        event={event}
        names={names}
        members={members ?? []}
        attendees={attendees}
        access={access}
        language={language}
      />
      {attendees === undefined ? (
        <Loading />
      ) : (
        <>
          <div className="detail-grid">
            <OwnAnswer
              eventId={event.id}
              userId={user.id}
              own={own}
              closed={access.answersClosed ? 'past' : access.deadlinePassed ? 'deadline' : null}
            />
            <Guests eventId={event.id} attendees={rows} members={members ?? []} access={access} />
          </div>
          <ContingentSection
            eventId={event.id}
            eventDate={event.date}
            userId={user.id}
            isAdmin={isAdmin}
            online={online}
            answersClosed={access.answersClosed}
            attendees={rows}
          />
          <Polls eventId={event.id} />
          {eventRows.state === 'onDevice' ? (
            <>
              <AttendeeTable
                event={event}
                attendees={rows}
                members={members ?? []}
                names={names}
                access={access}
                language={language}
              />
              <Transports eventId={event.id} attendees={rows} transports={transports} access={access} language={language} />
            </>
          ) : (
            <EventRowsNotice event={event} state={eventRows.state} retry={eventRows.retry} />
          )}
          <Rides eventId={event.id} eventDate={event.date} />
        </>
      )}
      {isAdmin ? <Reminders eventId={event.id} online={online} language={language} /> : null}
      {eventRows.state === 'onDevice' && <CommentSection eventId={event.id} />}
    </div>
  );
}

/** How long the page waits for an event it has just created to arrive through sync. */
const CREATED_WAIT_MS = 15_000;

/**
 * True for a while after the create dialog opened this page (navigation state `created`): the event is
 * on the server and the change stream brings it, so "not found" would be wrong meanwhile.
 */
function useAwaitCreated(): boolean {
  const location = useLocation();
  const created = (location.state as { created?: unknown } | null)?.created === true;
  const [waiting, setWaiting] = useState(created);
  useEffect(() => {
    setWaiting(created);
    if (!created) return;
    const timer = setTimeout(() => setWaiting(false), CREATED_WAIT_MS);
    return () => clearTimeout(timer);
  }, [created, location.key]);
  return waiting;
}
