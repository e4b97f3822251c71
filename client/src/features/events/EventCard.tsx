import type { AttendanceStatus, EventDoc, Language } from '@fankurve/shared';
import { formatMoney } from '@fankurve/shared/rules/money';
import { memo, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { setOwnAttendance } from '../../data/index.js';
import { errorText } from '../../i18n/index.js';
import { toastError } from '../../ui/toast.js';
import { EventMentionBadge } from '../comments/index.js';
import { formatEventDate, isoWallClock } from '../../i18n/eventDates.js';
import { AnswerDeadline } from './AnswerDeadline.js';
import type { EventAttendance } from './summary.js';

interface Props {
  event: EventDoc;
  attendance: EventAttendance;
  countsLoading: boolean;
  past: boolean;
  /** The event takes no more answers (shared rule `checkEventOpenForAnswers`: it is past). */
  answersClosed: boolean;
  /** Its answer deadline has passed for this member (shared rule `checkAnswerDeadlineOpen`; never for an admin). */
  deadlinePassed: boolean;
  /** The club's wall clock now, for the deadline's time left. */
  clubNow: string;
  language: Language;
  userId: string;
  /** The member (or their guest) is offered a returned ticket of this event, not answered yet. */
  offered?: boolean;
}

const ANSWERS: { status: AttendanceStatus | null; key: 'events.answerGoing' | 'events.answerMaybe' | 'events.answerNotGoing' }[] =
  [
    { status: 'going', key: 'events.answerGoing' },
    { status: 'maybe', key: 'events.answerMaybe' },
    { status: null, key: 'events.answerNotGoing' },
  ];

/**
 * A card renders again only when what it shows changed: a new result of the device's queries brings
 * new objects for every event, and a list of a hundred cards would otherwise render whole each time.
 */
function sameCard(before: Props, after: Props): boolean {
  const same = <K extends keyof Props>(key: K) => Object.is(before[key], after[key]);
  const a = before.attendance;
  const b = after.attendance;
  return (
    (before.event === after.event || (before.event.id === after.event.id && before.event.seq === after.event.seq)) &&
    a.going === b.going &&
    a.maybe === b.maybe &&
    a.paymentRequired === b.paymentRequired &&
    a.own?.status === b.own?.status &&
    (['countsLoading', 'past', 'answersClosed', 'deadlinePassed', 'language', 'userId', 'offered'] as const).every(same) &&
    // The wall clock only counts down a deadline the card shows.
    (after.event.answer_deadline === null || same('clubNow'))
  );
}

/** One event: when, where, price, how many go, and the member's own answer (works offline). */
export const EventCard = memo(EventCardContent, sameCard);

function EventCardContent({
  event,
  attendance,
  countsLoading,
  past,
  answersClosed,
  deadlinePassed,
  clubNow,
  language,
  userId,
  offered = false,
}: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const closedId = `${titleId}-closed`;
  const deadlineId = `${titleId}-deadline`;
  const locked = answersClosed || deadlinePassed;
  // Why the answer buttons are off: the event is over, or (said by the deadline's fact) its answers closed.
  const closedReason = answersClosed ? closedId : deadlinePassed ? deadlineId : undefined;
  const [saving, setSaving] = useState(false);
  const own = attendance.own;
  const ownStatus = own?.status ?? null;
  const paymentRequired = attendance.paymentRequired;

  async function answer(status: AttendanceStatus | null) {
    if (saving || locked || status === ownStatus) return;
    setSaving(true);
    try {
      await setOwnAttendance(event.id, userId, status);
    } catch (error) {
      // A local refusal (debt block, bought ticket) carries its message code; the server checks again.
      toastError(errorText(error, status === null ? 'errors.removeAttendanceFailed' : 'errors.updateAttendanceFailed'));
    } finally {
      setSaving(false);
    }
  }

  const classes = ['card', 'event-card'];
  if (past) classes.push('event-past');
  if (paymentRequired) classes.push('event-payment-required');
  else if (ownStatus === 'going') classes.push('event-attending');
  else if (ownStatus === 'maybe') classes.push('event-maybe');

  return (
    <li>
      <article className={classes.join(' ')} aria-labelledby={titleId}>
        <div className="event-head">
          <h2 id={titleId} className="event-title">
            <Link to={`/events/${event.id}`}>{event.title}</Link>
          </h2>
          {event.is_updated ? (
            <span className="badge badge-amber" title={t('eventDetail.updatedHint')}>
              {t('eventDetail.updated')}
            </span>
          ) : null}
          {paymentRequired ? <span className="badge badge-red">{t('events.paymentRequired')}</span> : null}
          {offered ? (
            <Link to="/my-tickets" className="badge badge-offer">
              {t('events.ticketOffered')}
            </Link>
          ) : null}
          <EventMentionBadge eventId={event.id} />
        </div>
        <dl className="facts">
          <div>
            <dt>{t('events.when')}</dt>
            <dd>
              <time dateTime={isoWallClock(event.date)}>{formatEventDate(event.date, language)}</time>
            </dd>
          </div>
          <AnswerDeadline deadline={event.answer_deadline} clubNow={clubNow} language={language} id={deadlineId} />
          <div>
            <dt>{t('events.where')}</dt>
            <dd>{event.location}</dd>
          </div>
          <div>
            <dt>{t('events.price')}</dt>
            <dd>{event.ticket_price_cents > 0 ? formatMoney(event.ticket_price_cents, language) : t('events.priceTba')}</dd>
          </div>
        </dl>
        <p className="event-counts" aria-live="polite">
          {countsLoading ? (
            t('common.loading')
          ) : (
            <>
              <span className="count count-going">{t('events.goingCount', { count: attendance.going })}</span>
              <span className="count count-maybe">{t('events.maybeCount', { count: attendance.maybe })}</span>
            </>
          )}
        </p>
        {answersClosed ? (
          <span id={closedId} className="sr-only">
            {t('events.answersClosed')}
          </span>
        ) : null}
        <div
          className={locked ? 'answer answer-closed' : 'answer'}
          role="group"
          aria-label={t('events.yourAnswer')}
          aria-describedby={closedReason}
        >
          {ANSWERS.map(({ status, key }) => (
            <button
              key={key}
              type="button"
              className={`answer-button answer-${status ?? 'none'}`}
              // "Absage" is the way out of an answer, never a stored state: without an answer nothing is selected.
              aria-pressed={status !== null && ownStatus === status}
              disabled={saving || locked}
              onClick={() => void answer(status)}
            >
              {t(key)}
            </button>
          ))}
        </div>
      </article>
    </li>
  );
}
