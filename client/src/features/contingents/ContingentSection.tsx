import { nextInLine } from '@fankurve/shared/rules/allocation';
import type { ContingentAnswer, MyRequest } from '@fankurve/shared';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { isApiError } from '../../api/client.js';
import { allocateContingent, getContingent, returnTicket } from '../../api/contingents.js';
import { onServerChange, updateOwnAnswer, useOpenOffers, useSyncState } from '../../data/index.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { formatDay } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { ContingentForm } from './ContingentForm.js';
import { OfferCard } from './OfferCard.js';
import { RequestQueue } from './RequestQueue.js';
import './contingents.css';

interface Props {
  eventId: string;
  /** The event's date (the deadline lies in its season, not after it). */
  eventDate: string;
  userId: string;
  isAdmin: boolean;
  online: boolean;
  /** A past event: nothing is returned any more. */
  answersClosed: boolean;
}

/** The answer for an event that has a contingent. */
type HeldContingent = ContingentAnswer & { contingent: NonNullable<ContingentAnswer['contingent']>; mine: MyRequest };

type Loaded = { state: 'loading' } | { state: 'none' } | { state: 'unavailable' } | { state: 'ready'; answer: HeldContingent };

const held = (answer: ContingentAnswer): answer is HeldContingent => answer.contingent !== null && answer.mine !== null;

/** The collections whose changes can move the contingent's figures or the member's place. */
const MOVES_CONTINGENT = ['attendees', 'offers', 'events'];

/**
 * The contingent's figures, the member's place and the admin's queue are read online (REST), again
 * whenever the change stream says attendee rows or offers changed, and when the device has finished
 * syncing (an answer made offline has just reached the server); offline the section keeps what it
 * last read and says so.
 */
function useContingent(eventId: string, online: boolean): [Loaded, () => void] {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const syncing = useSyncState('syncing');
  const wasSyncing = useRef(syncing);
  useEffect(() => {
    if (wasSyncing.current && !syncing) reload();
    wasSyncing.current = syncing;
  }, [syncing, reload]);
  useEffect(
    () =>
      onServerChange((collections) => {
        if (collections.some((name) => MOVES_CONTINGENT.includes(name))) reload();
      }),
    [reload],
  );
  useEffect(() => {
    if (!online) {
      setLoaded((before) => (before.state === 'ready' ? before : { state: 'unavailable' }));
      return;
    }
    let cancelled = false;
    getContingent(eventId).then(
      (answer) => {
        // An event without a contingent answers null, no error (docs/product.md, REST API).
        if (!cancelled) setLoaded(held(answer) ? { state: 'ready', answer } : { state: 'none' });
      },
      (error: unknown) => {
        if (cancelled) return;
        if (!isApiError(error)) console.warn('Could not read the contingent', error);
        setLoaded((before) => (before.state === 'ready' ? before : { state: 'unavailable' }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [eventId, online, version]);
  return [loaded, reload];
}

/**
 * The ticket contingent on the event page (docs/product.md, Ticket contingents): the member's open
 * offers with their countdown (from the device, offline too), the figures, their own request and
 * their guests' (state and place; "return ticket" on an allocated one), and for admins the settings,
 * "allocate now" and the queue with pin and exclude. Nothing for a member of an event without one.
 */
export function ContingentSection({ eventId, eventDate, userId, isAdmin, online, answersClosed }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  const offers = useOpenOffers(userId, eventId);
  const [loaded, reload] = useContingent(eventId, online);
  const [editing, setEditing] = useState(false);
  const [allocating, setAllocating] = useState(false);
  const [confirmingAllocation, setConfirmingAllocation] = useState(false);

  const hasOffers = offers !== undefined && offers.length > 0;
  if (!isAdmin && loaded.state !== 'ready' && !hasOffers) return null;
  if (isAdmin && loaded.state === 'loading' && !hasOffers) return null;
  const answer = loaded.state === 'ready' ? loaded.answer : null;

  async function allocate() {
    setAllocating(true);
    try {
      const result = await allocateContingent(eventId);
      toastSuccess(t('contingents.allocatedToast', { count: result.allocated }));
      setConfirmingAllocation(false);
      reload();
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setAllocating(false);
    }
  }

  return (
    <section className="card detail-card detail-wide contingent" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {t('contingents.heading')}
      </h2>
      {hasOffers ? (
        <ul className="plain-list offer-list">
          {offers.map((offer) => (
            <OfferCard key={offer.id} offer={offer} userId={userId} showEvent={false} />
          ))}
        </ul>
      ) : null}
      {answer ? <Figures answer={answer} /> : null}
      {answer ? (
        <MyRequests
          eventId={eventId}
          userId={userId}
          mine={answer.mine}
          online={online}
          closed={answersClosed}
          onChange={reload}
        />
      ) : null}
      {loaded.state === 'unavailable' || (!online && answer) ? (
        <p className="offline-hint">{t('contingents.offlineHint')}</p>
      ) : null}
      {isAdmin && loaded.state === 'none' ? <p className="muted">{t('contingents.none')}</p> : null}
      {isAdmin && (loaded.state === 'none' || answer) ? (
        <div className="detail-actions">
          <button type="button" className="button button-small button-ghost" disabled={!online} onClick={() => setEditing(true)}>
            {t(answer ? 'contingents.edit' : 'contingents.create')}
          </button>
          {answer ? (
            <button
              type="button"
              className="button button-small button-primary"
              disabled={!online || allocating}
              onClick={() => setConfirmingAllocation(true)}
            >
              {t('contingents.allocateNow')}
            </button>
          ) : null}
        </div>
      ) : null}
      {isAdmin && answer?.queue ? (
        <RequestQueue eventId={eventId} queue={answer.queue} online={online} onChange={reload} />
      ) : null}
      {confirmingAllocation && answer ? (
        <ConfirmDialog
          title={t('contingents.allocateConfirmTitle')}
          message={allocationSummary(answer, t, currentLanguage())}
          confirmLabel={t('contingents.allocateNow')}
          busy={allocating}
          onConfirm={() => void allocate()}
          onCancel={() => setConfirmingAllocation(false)}
        />
      ) : null}
      {editing ? (
        <ContingentForm
          eventId={eventId}
          eventDate={eventDate}
          contingent={answer?.contingent ?? null}
          onClose={(saved) => {
            setEditing(false);
            if (saved) reload();
          }}
        />
      ) : null}
    </section>
  );
}

/** How many names the allocation's confirmation lists before "and 3 more". */
const NAMES_SHOWN = 8;

/**
 * What "allocate now" will do, for the admin to confirm: how many tickets go to whom (the shared rule
 * `nextInLine` over the queue, which comes in allocation order), and whether the request deadline the
 * members were told has not passed yet.
 */
function allocationSummary(answer: HeldContingent, t: TFunction, language: ReturnType<typeof currentLanguage>): string {
  const { contingent, queue = [] } = answer;
  const recipients = nextInLine(queue, contingent.free).map((request) =>
    request.kind === 'guest'
      ? t('contingents.queue.guestOf', { name: request.guest_name ?? '', host: request.host_username ?? '' })
      : (request.username ?? ''),
  );
  const names =
    recipients.length > NAMES_SHOWN
      ? `${recipients.slice(0, NAMES_SHOWN).join(', ')} ${t('contingents.allocateConfirmMore', { count: recipients.length - NAMES_SHOWN })}`
      : recipients.join(', ');
  const who =
    recipients.length === 0
      ? t('contingents.allocateConfirmNone')
      : t('contingents.allocateConfirmTickets', { count: recipients.length, names });
  const early =
    contingent.request_deadline !== null && contingent.allocated_at === null
      ? ` ${t('contingents.allocateConfirmDeadline', { date: formatEventDate(contingent.request_deadline, language) })}`
      : '';
  return who + early;
}

/** The offers' window in the largest whole unit: 1 day, 3 hours, 90 minutes. */
function offerWindowText(minutes: number, t: TFunction): string {
  if (minutes % 1440 === 0) return t('contingents.offerWindowDays', { count: minutes / 1440 });
  if (minutes % 60 === 0) return t('contingents.offerWindowHours', { count: minutes / 60 });
  return t('contingents.offerWindowMinutes', { count: minutes });
}

/** Tickets, allocated, waiting, free; the deadline (or at once) and the windows. */
function Figures({ answer }: { answer: HeldContingent }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { contingent } = answer;
  const figures = [
    ['tickets', contingent.tickets],
    ['allocated', contingent.allocated],
    ['waiting', contingent.waiting],
    ['free', contingent.free],
  ] as const;
  return (
    <>
      <dl className="contingent-figures">
        {figures.map(([key, value]) => (
          <div key={key} className={`figure-${key}`}>
            <dt>{t(`contingents.figures.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="contingent-rules muted">
        {contingent.request_deadline === null
          ? t('contingents.atOnce')
          : contingent.allocated_at === null
            ? t('contingents.gathering', { date: formatEventDate(contingent.request_deadline, language) })
            : t('contingents.allocatedOn', { date: formatDay(contingent.allocated_at, language) })}{' '}
        {t('contingents.requestsCount', { count: contingent.requested })} {offerWindowText(contingent.offer_minutes, t)}
        {contingent.payment_days !== null ? <> {t('contingents.paymentDays', { count: contingent.payment_days })}</> : null}
      </p>
    </>
  );
}

type OneRequest = Omit<MyRequest, 'guests'> & { guest_name?: string };

/** The member's own request and their guests', each with what it means and, when allocated, "return ticket". */
function MyRequests({
  eventId,
  userId,
  mine,
  online,
  closed,
  onChange,
}: {
  eventId: string;
  userId: string;
  mine: MyRequest;
  online: boolean;
  closed: boolean;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const [returning, setReturning] = useState<OneRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const { guests, ...own } = mine;
  const lines: OneRequest[] = [own, ...guests].filter(
    (line) => line.attendee_id !== null && (line.state !== 'none' || line.returned),
  );

  async function giveBack() {
    if (!returning?.attendee_id) return;
    setBusy(true);
    try {
      const result = await returnTicket(returning.attendee_id);
      toastSuccess(t(result.offered ? 'contingents.returnedOffered' : 'contingents.returnedFree'));
      setReturning(null);
      onChange();
    } catch (error) {
      toastError(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  // Asking again after leaving the queue: the answer needs a ticket again (on the device, offline too);
  // the server starts a new request at the back of the line.
  async function askAgain() {
    try {
      await updateOwnAnswer(eventId, userId, { needs_ticket: true });
      toastSuccess(t('contingents.askedAgain'));
      onChange();
    } catch (error) {
      toastError(errorText(error));
    }
  }

  if (lines.length === 0) return <p className="muted">{t('contingents.mine.none')}</p>;
  return (
    <>
      <ul className="plain-list contingent-mine">
        {lines.map((line) => (
          <li key={line.attendee_id} className="contingent-line" data-request={line.attendee_id}>
            <RequestText line={line} />
            {line.state === 'allocated' && !closed ? (
              <button
                type="button"
                className="button button-small button-ghost"
                disabled={!online}
                onClick={() => setReturning(line)}
              >
                {t('contingents.return')}
                {line.guest_name ? <span className="sr-only"> {line.guest_name}</span> : null}
              </button>
            ) : null}
            {line.state === 'declined' && !line.guest_name && !closed ? (
              <button type="button" className="button button-small button-secondary" onClick={() => void askAgain()}>
                {t('contingents.askAgain')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {returning ? (
        <ConfirmDialog
          title={t('contingents.returnTitle')}
          message={t('contingents.returnText')}
          confirmLabel={t('contingents.return')}
          busy={busy}
          onConfirm={() => void giveBack()}
          onCancel={() => setReturning(null)}
        />
      ) : null}
    </>
  );
}

function RequestText({ line }: { line: OneRequest }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const who = line.guest_name ? t('contingents.mine.guest', { name: line.guest_name }) : t('contingents.mine.you');
  let text: string;
  if (line.returned) text = t('contingents.mine.returned');
  else if (line.state === 'waiting' && line.position !== null)
    text = t('contingents.mine.waitingAt', { position: line.position });
  else if (line.state === 'requested' && line.position !== null)
    text = t('contingents.mine.requestedAt', { position: line.position });
  else text = t(`contingents.mine.${line.state}`);
  return (
    <p className="contingent-state">
      <strong>{who}</strong> {text}
      {line.state === 'allocated' && line.pay_by ? (
        <> {t('contingents.mine.payBy', { date: formatDay(line.pay_by, language) })}</>
      ) : null}
    </p>
  );
}
