import { nextInLine } from '@fankurve/shared/rules/allocation';
import type { AttendeeDoc, MyRequest } from '@fankurve/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { allocateContingent, returnTicket } from '../../api/contingents.js';
import { updateOwnAnswer, useOpenOffers } from '../../data/index.js';
import { formatEventDate } from '../../i18n/eventDates.js';
import { formatDay, formatInstant } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { ConfirmDialog, Modal } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { ContingentForm } from './ContingentForm.js';
import { OfferCard } from './OfferCard.js';
import { RequestQueue } from './RequestQueue.js';
import { RequestExplanation } from './RequestExplanation.js';
import { useContingent, type HeldContingent } from './useContingent.js';
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
  /** The event's attendee rows on the device: the member's own says what the device knows offline. */
  attendees: readonly AttendeeDoc[];
}

/**
 * The ticket contingent on the event page (docs/product.md, Ticket contingents): the member's open
 * offers with their countdown (from the device, offline too), the figures, their own request and
 * their guests' (state and place, why it stands there; "return ticket" on an allocated one), and for admins the settings,
 * "allocate now" and the queue with pin and exclude; offline, all of it as last read on this device.
 * Nothing for a member of an event without one.
 */
export function ContingentSection({ eventId, eventDate, userId, isAdmin, online, answersClosed, attendees }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  const offers = useOpenOffers(userId, eventId);
  const [loaded, reload] = useContingent(eventId, userId, online);
  const [editing, setEditing] = useState(false);
  const [allocating, setAllocating] = useState(false);
  const [confirmingAllocation, setConfirmingAllocation] = useState(false);

  const hasOffers = offers !== undefined && offers.length > 0;
  // Never read here and no connection: the member's own row still knows a contingent's ticket (pay_by).
  const heldOnDevice =
    loaded.state === 'unavailable' ? attendees.find((row) => row.user_id === userId && row.bought && row.pay_by) : undefined;
  if (!isAdmin && loaded.state !== 'ready' && !hasOffers && !heldOnDevice) return null;
  if (isAdmin && loaded.state === 'loading' && !hasOffers) return null;
  const answer = loaded.state === 'ready' ? loaded.answer : null;
  const stale = loaded.state === 'ready' && loaded.stale;

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
          attendees={attendees}
          online={online && !stale}
          closed={answersClosed}
          onChange={reload}
        />
      ) : null}
      {heldOnDevice ? (
        <p className="contingent-state">
          <strong>{t('contingents.mine.you')}</strong> {t('contingents.mine.allocated')}{' '}
          {t('contingents.mine.payBy', { date: formatDay(heldOnDevice.pay_by!, currentLanguage()) })}
        </p>
      ) : null}
      {stale ? (
        <p className="offline-hint">{t('contingents.staleHint', { date: formatInstant(loaded.readAt, currentLanguage()) })}</p>
      ) : loaded.state === 'unavailable' ? (
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
      ? t('contingents.queue.guestOf', { name: request.guest_name ?? '', host: shownName(request.host_username, language) ?? '' })
      : (shownName(request.username, language) ?? ''),
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

/**
 * Tickets, allocated, on offer, free (they add up: allocated + on offer + free = tickets, plus any
 * held beyond the contingent, which a warning names), the waiting list; the deadline (or at once)
 * and the windows.
 */
function Figures({ answer }: { answer: HeldContingent }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const { contingent } = answer;
  const figures = [
    ['tickets', contingent.tickets],
    ['allocated', contingent.allocated],
    ['onOffer', contingent.on_offer],
    ['free', contingent.free],
    ['waiting', contingent.waiting],
  ] as const;
  return (
    <>
      {contingent.beyond > 0 ? (
        <p className="notice notice-warning contingent-beyond" role="note">
          {t('contingents.beyond', { count: contingent.beyond, tickets: contingent.tickets })}
        </p>
      ) : null}
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
  attendees,
  online,
  closed,
  onChange,
}: {
  eventId: string;
  userId: string;
  mine: MyRequest;
  attendees: readonly AttendeeDoc[];
  online: boolean;
  closed: boolean;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const [returning, setReturning] = useState<OneRequest | null>(null);
  const { guests, ...own } = mine;
  const lines: OneRequest[] = [own, ...guests].filter(
    (line) => line.attendee_id !== null && (line.state !== 'none' || line.returned),
  );

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
            {/* Absent from an answer remembered before the explanation existed. */}
            {line.explanation ? <RequestExplanation explanation={line.explanation} guestName={line.guest_name} /> : null}
          </li>
        ))}
      </ul>
      {returning ? (
        <ReturnDialog
          line={returning}
          needsSeat={attendees.some((row) => row.id === returning.attendee_id && row.needs_transport)}
          onDone={(returned) => {
            setReturning(null);
            if (returned) onChange();
          }}
        />
      ) : null}
    </>
  );
}

/**
 * "Return ticket?": the member (or their guest) says whether they still go, and, with a bus seat,
 * whether they still need it. The server frees a seat no longer needed at once and lets an answer
 * that no longer goes go once someone takes the ticket (it holds the ticket until then).
 */
function ReturnDialog({
  line,
  needsSeat,
  onDone,
}: {
  line: OneRequest;
  needsSeat: boolean;
  onDone: (returned: boolean) => void;
}) {
  const { t } = useTranslation();
  const [going, setGoing] = useState(true);
  const [keepSeat, setKeepSeat] = useState(true);
  const [busy, setBusy] = useState(false);
  const textId = useId();
  const name = line.guest_name;

  async function giveBack() {
    if (!line.attendee_id) return;
    setBusy(true);
    try {
      const result = await returnTicket(line.attendee_id, {
        going,
        ...(needsSeat ? { needs_transport: going && keepSeat } : {}),
      });
      toastSuccess(t(result.offered ? 'contingents.returnedOffered' : 'contingents.returnedFree'));
      onDone(true);
    } catch (error) {
      toastError(errorText(error));
      setBusy(false);
    }
  }

  return (
    <Modal title={t('contingents.returnTitle')} onClose={() => onDone(false)} size="small" describedBy={textId} busy={busy}>
      <p id={textId} className="confirm-message">
        {t('contingents.returnText')}
      </p>
      <fieldset className="choice-group return-choices">
        <legend>{name ? t('contingents.returnGuestQuestion', { name }) : t('contingents.returnQuestion')}</legend>
        <label className="check">
          <input type="checkbox" checked={going} disabled={busy} onChange={(e) => setGoing(e.target.checked)} />
          {name ? t('contingents.returnGuestGoing', { name }) : t('contingents.returnGoing')}
        </label>
        {needsSeat ? (
          <label className="check">
            <input
              type="checkbox"
              checked={going && keepSeat}
              disabled={busy || !going}
              onChange={(e) => setKeepSeat(e.target.checked)}
            />
            {t('contingents.returnKeepSeat')}
          </label>
        ) : null}
        {!going ? (
          <p className="muted return-leaving">
            {name ? t('contingents.returnGuestLeaving', { name }) : t('contingents.returnLeaving')}
          </p>
        ) : null}
      </fieldset>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={() => onDone(false)} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={() => void giveBack()} disabled={busy}>
          {t('contingents.return')}
        </button>
      </div>
    </Modal>
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
