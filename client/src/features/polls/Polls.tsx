import { pollPercent } from '@fankurve/shared/rules/polls';
import { clubWallClock } from '@fankurve/shared/rules/attendance';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { isApiError } from '../../api/client.js';
import { deletePoll, updatePoll } from '../../api/polls.js';
import { castVote, LocalRuleError, usePolls, useSyncState, type PollView } from '../../data/index.js';
import { formatWallClock } from '../../i18n/dates.js';
import { currentLanguage, errorText } from '../../i18n/index.js';
import { useUser } from '../../session/session.js';
import { useSiteConfig } from '../../session/siteConfig.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { FoldHeading } from '../../ui/FoldHeading.js';
import { useFold } from '../../ui/useFold.js';
import { PollForm } from './PollForm.js';
import './polls.css';

/** A timer for a closing time only within this (the page is re-read long before then). */
const WAKE_WITHIN_MS = 24 * 60 * 60 * 1000;

/** The server's reason when it gave one, or the rule the device refused by, else the screen's own sentence. */
function failureText(error: unknown, fallback: string): string {
  return isApiError(error) || error instanceof LocalRuleError ? errorText(error) : fallback;
}

interface Props {
  /** On an event's page: only that event's polls, and new ones belong to it. */
  eventId?: string;
}

/**
 * The club's polls for the list (`eventId` undefined) or for one event's page, from the device's
 * database, read again when a poll's closing time passes (by the device's clock). undefined while the
 * device reads.
 */
export function usePollList(userId: string, eventId?: string): PollView[] | undefined {
  const [tick, setTick] = useState(0);
  const polls = usePolls(userId, eventId, tick);
  const nextClose = polls
    ?.filter((poll) => poll.open && poll.closes_at_utc !== null)
    .map((poll) => Date.parse(poll.closes_at_utc!))
    .sort((a, b) => a - b)[0];
  useEffect(() => {
    if (nextClose === undefined) return;
    const wait = Math.max(0, nextClose - Date.now()) + 500;
    if (wait > WAKE_WITHIN_MS) return;
    const timer = setTimeout(() => setTick((value) => value + 1), wait);
    return () => clearTimeout(timer);
  }, [nextClose]);
  return polls;
}

/** The polls of an event's page, read by the section itself. */
export function Polls({ eventId }: Props) {
  const user = useUser();
  const polls = usePollList(user.id, eventId);
  return <PollList eventId={eventId} polls={polls} />;
}

/**
 * The club's polls (docs/product.md, Polls): on /events below the news (the page reads them, see
 * `usePollList`) and on their event's page. Members vote on the device, offline too; admins ask,
 * edit, close and delete polls online, and the list follows through the sync.
 */
export function PollList({ eventId, polls }: Props & { polls: PollView[] | undefined }) {
  const { t } = useTranslation();
  const user = useUser();
  const isAdmin = user.scope === 'admin';
  const online = useSyncState('online');
  const headingId = useId();
  const listId = useId();
  // Folded on a phone above the events list only; on an event's page its polls are part of it.
  const fold = useFold(eventId === undefined);
  const [creating, setCreating] = useState(false);

  // Nothing while the device reads, and nothing at all for a member when there is no poll.
  if (polls === undefined || (polls.length === 0 && !isAdmin)) return null;
  const awaiting = polls.filter((poll) => poll.open && poll.my_votes.length === 0).length;

  return (
    <section className="polls" aria-labelledby={headingId}>
      <div className="polls-head">
        <h2 className="polls-heading">
          <FoldHeading
            fold={fold}
            id={headingId}
            controls={listId}
            title={t('polls.heading')}
            badge={
              fold.foldable && awaiting > 0 ? (
                <span className="polls-awaiting"> {t('polls.awaiting', { count: awaiting })}</span>
              ) : null
            }
          />
        </h2>
        {isAdmin ? (
          <button type="button" className="button button-small button-ghost" disabled={!online} onClick={() => setCreating(true)}>
            {t('polls.ask')}
          </button>
        ) : null}
      </div>
      {isAdmin && !online ? <small className="polls-hint">{t('polls.askOffline')}</small> : null}
      <div className="fold-body" id={listId}>
        {fold.folded ? (
          polls.length > 0 ? (
            <p className="fold-teaser">
              {polls[0]!.question}
              {polls.length > 1 ? <span className="muted"> {t('polls.more', { count: polls.length - 1 })}</span> : null}
            </p>
          ) : null
        ) : polls.length > 0 ? (
          <ul className="plain-list poll-list">
            {polls.map((poll) => (
              <li key={poll.id}>
                <PollCard poll={poll} userId={user.id} admin={isAdmin} online={online} showEvent={eventId === undefined} />
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {creating ? <PollForm poll={null} eventId={eventId} onClose={() => setCreating(false)} /> : null}
    </section>
  );
}

interface CardProps {
  poll: PollView;
  userId: string;
  admin: boolean;
  online: boolean;
  showEvent: boolean;
}

function PollCard({ poll, userId, admin, online, showEvent }: CardProps) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const titleId = useId();
  const timeZone = useSiteConfig().time_zone;
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<'close' | 'delete' | null>(null);

  async function confirm() {
    const action = confirming;
    if (!action) return;
    setBusy(true);
    try {
      if (action === 'delete') {
        await deletePoll(poll.id);
        toastSuccess(t('polls.deleted'));
      } else {
        // A minute back: the club's time now, even on a clock a little ahead of the server's.
        await updatePoll(poll.id, { closes_at: clubWallClock(timeZone, new Date(Date.now() - 60_000)) });
        toastSuccess(t('polls.closed'));
      }
      setConfirming(null);
    } catch (error) {
      toastError(failureText(error, t(action === 'delete' ? 'polls.deleteFailed' : 'polls.closeFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article className={poll.open ? 'poll' : 'poll poll-closed'} aria-labelledby={titleId}>
      <p className="poll-meta">
        {poll.open ? null : <span className="poll-badge">{t('polls.closedBadge')}</span>}
        {poll.open ? (
          <span>
            {poll.closes_at ? t('polls.closesAt', { date: formatWallClock(poll.closes_at, language) }) : t('polls.openEnded')}
          </span>
        ) : null}
        {poll.multiple ? <span>{t('polls.several')}</span> : null}
      </p>
      <h3 id={titleId} className="poll-question">
        {poll.question}
      </h3>
      {showEvent && poll.event ? (
        <p className="poll-event">
          {t('polls.event')}: <Link to={`/events/${encodeURIComponent(poll.event.id)}`}>{poll.event.title}</Link>
        </p>
      ) : null}
      {/* A new form whenever the member's vote on the device changes (another device's, or a refused one undone). */}
      <Ballot key={poll.my_votes.join(',')} poll={poll} userId={userId} online={online} />
      {admin ? (
        <div className="poll-admin">
          <button type="button" className="button button-small button-ghost" disabled={!online} onClick={() => setEditing(true)}>
            {t('polls.edit')}
            <span className="sr-only"> {poll.question}</span>
          </button>
          {poll.open ? (
            <button
              type="button"
              className="button button-small button-ghost"
              disabled={!online}
              onClick={() => setConfirming('close')}
            >
              {t('polls.closeNow')}
              <span className="sr-only"> {poll.question}</span>
            </button>
          ) : null}
          <button
            type="button"
            className="button button-small button-danger-ghost"
            disabled={!online}
            onClick={() => setConfirming('delete')}
          >
            {t('polls.delete')}
            <span className="sr-only"> {poll.question}</span>
          </button>
        </div>
      ) : null}
      {editing ? <PollForm poll={poll} onClose={() => setEditing(false)} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={t(confirming === 'delete' ? 'polls.deleteTitle' : 'polls.closeTitle')}
          message={t(confirming === 'delete' ? 'polls.deleteText' : 'polls.closeText', { question: poll.question })}
          confirmLabel={t(confirming === 'delete' ? 'polls.delete' : 'polls.closeNow')}
          busy={busy}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </article>
  );
}

/** The options as radio buttons or checkboxes, the vote buttons, and the result where the member may see it. */
function Ballot({ poll, userId, online }: { poll: PollView; userId: string; online: boolean }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<string[]>(poll.my_votes);
  const [busy, setBusy] = useState(false);
  const visible = poll.voters !== null;
  const voted = poll.my_votes.length > 0;
  const changed = choice.join(',') !== poll.my_votes.join(',');

  async function vote(optionIds: string[], done: string) {
    setBusy(true);
    try {
      await castVote(userId, poll.id, optionIds);
      toastSuccess(optionIds.length > 0 && !online ? t('polls.votedOffline') : done);
    } catch (error) {
      toastError(failureText(error, t('polls.voteFailed')));
      setChoice(poll.my_votes);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (choice.length === 0) {
      toastError(t('polls.chooseOne'));
      return;
    }
    void vote(choice, t('polls.voted'));
  }

  function toggle(optionId: string, checked: boolean) {
    if (!poll.multiple) setChoice([optionId]);
    else setChoice((current) => (checked ? [...current, optionId] : current.filter((id) => id !== optionId)));
  }

  const hiddenNote = visible
    ? null
    : poll.results === 'after_close'
      ? t('polls.hiddenAfterClose')
      : voted
        ? t('polls.hiddenPending')
        : t('polls.hiddenAfterVote');

  return (
    <form className="poll-form" onSubmit={submit}>
      <fieldset className="poll-options" disabled={!poll.open || busy}>
        <legend className="sr-only">{t('polls.answers')}</legend>
        {poll.options.map((option) => {
          const percent = visible ? pollPercent(option.votes ?? 0, poll.voters ?? 0) : 0;
          return (
            <div key={option.id} className="poll-option">
              <label className="poll-choice">
                <input
                  type={poll.multiple ? 'checkbox' : 'radio'}
                  name={`poll-${poll.id}`}
                  value={option.id}
                  checked={choice.includes(option.id)}
                  onChange={(event) => toggle(option.id, event.target.checked)}
                />
                <span className="poll-option-text">{option.text}</span>
                {poll.my_votes.includes(option.id) ? <span className="poll-mine">({t('polls.yourChoice')})</span> : null}
              </label>
              {visible ? (
                <div className="poll-result">
                  <span className="poll-bar" aria-hidden="true">
                    <span className="poll-bar-fill" style={{ width: `${percent}%` }} />
                  </span>
                  <span className="poll-count">
                    {t('polls.votes', { count: option.votes ?? 0 })} · {t('polls.percent', { percent })}
                  </span>
                </div>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      {visible ? <p className="poll-voters">{t('polls.voters', { count: poll.voters ?? 0 })}</p> : null}
      {hiddenNote ? <p className="poll-hidden">{hiddenNote}</p> : null}
      {poll.open ? (
        <div className="poll-actions">
          <button type="submit" className="button button-small button-primary" disabled={busy || !changed || choice.length === 0}>
            {voted ? t('polls.changeVote') : t('polls.vote')}
          </button>
          {voted ? (
            <button
              type="button"
              className="button button-small button-secondary"
              disabled={busy}
              onClick={() => void vote([], t('polls.withdrawn'))}
            >
              {t('polls.withdraw')}
            </button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
