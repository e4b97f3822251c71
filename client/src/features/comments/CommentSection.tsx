import {
  COMMENT_MAX_LENGTH,
  isErasedComment,
  mayChangeComment,
  type CommentAction,
  type CommentActor,
  type Language,
} from '@fankurve/shared';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import {
  addComment,
  deleteComment,
  editComment,
  resolveComment,
  toggleRequiresAnswer,
  unresolveComment,
  useComments,
  useMembers,
  type CommentView,
} from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { isFormerMember, shownName } from '../../i18n/memberNames.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError } from '../../ui/toast.js';
import './comments.css';
import { failureText, formatCommentDate } from './format.js';
import { MentionInput } from './MentionInput.js';

/** How long a comment reached by its address (#comment-{id}) stays highlighted. */
const HIGHLIGHT_MS = 2500;

type Actor = CommentActor;

/**
 * The comments of an event (docs/architecture.md, Comments and mentions; anchors #comments and #comment-{id}):
 * read from and written to the device, so they work offline and arrive live from other members. Each
 * comment shows the actions the shared rule allows the signed-in member.
 */
export function CommentSection({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const user = useUser();
  const comments = useComments(eventId);
  const members = useMembers();
  const language = currentLanguage();
  const actor = useMemo<Actor>(() => ({ id: user.id, scope: user.scope }), [user.id, user.scope]);
  // Active members other than oneself can be mentioned; an erased account never.
  const names = useMemo(
    () =>
      (members ?? [])
        .filter((member) => member.id !== user.id && member.username && !isFormerMember(member.username))
        .map((member) => member.username),
    [members, user.id],
  );
  const sectionRef = useRef<HTMLElement>(null);
  const highlighted = useAnchor(comments !== undefined, sectionRef, comments);

  return (
    <section id="comments" ref={sectionRef} className="card comments" aria-labelledby={titleId} tabIndex={-1}>
      <h2 id={titleId} className="card-title">
        {t('comments.title')}
        {comments && comments.length > 0 ? <span className="badge badge-muted comments-count">{comments.length}</span> : null}
      </h2>
      {comments === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : comments.length === 0 ? (
        <p className="muted comments-empty">{t('comments.empty')}</p>
      ) : (
        <ol className="plain-list comment-list">
          {comments.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              author={shownName(comment.username, language) ?? (comment.user_id === user.id ? user.username : null)}
              actor={actor}
              names={names}
              language={language}
              highlighted={highlighted === comment.id}
            />
          ))}
        </ol>
      )}
      <CommentForm eventId={eventId} actor={actor} names={names} />
    </section>
  );
}

/** When the anchor is looked at again after the first scroll (ms). */
const RECHECK_MS = [300, 700, 1500, 3000];
/** What the member does to scroll themselves: the anchor is then left alone. */
const MEMBER_SCROLLS = ['wheel', 'touchstart', 'keydown'] as const;

/**
 * Scrolls to #comments or #comment-{id} once the comments have rendered (a comment that is not on
 * the device yet is waited for), and names the comment to highlight briefly. Each navigation
 * (location key) is handled once, so the member's own scrolling is never taken over again.
 */
function useAnchor(ready: boolean, sectionRef: RefObject<HTMLElement | null>, comments: unknown): string | null {
  const location = useLocation();
  const handled = useRef<string | null>(null);
  const recheck = useRef<(() => void) | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);

  useEffect(() => {
    const { hash, key } = location;
    if (!ready || !hash || handled.current === `${key}${hash}`) return;
    let commentId: string | null = null;
    let target: HTMLElement | null = null;
    if (hash === '#comments') target = sectionRef.current;
    else if (hash.startsWith('#comment-')) {
      commentId = decodeURIComponent(hash.slice('#comment-'.length));
      target = document.getElementById(`comment-${commentId}`);
    } else return;
    if (!target) return;
    handled.current = `${key}${hash}`;
    const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const element = target;
    const show = (behavior: ScrollBehavior) => element.scrollIntoView({ block: commentId ? 'center' : 'start', behavior });
    show(smooth ? 'smooth' : 'auto');
    element.focus({ preventScroll: true });
    if (commentId) setHighlighted(commentId);
    // The page above may still grow (an image, the attendee table, rows arriving): look again a few
    // times until the member scrolls themselves. Not tied to this effect's cleanup: new comments
    // re-run it, and the look must still happen.
    recheck.current?.();
    const timers = RECHECK_MS.map((ms) =>
      setTimeout(() => {
        const box = element.getBoundingClientRect();
        if (box.bottom < 0 || box.top > window.innerHeight) show('auto');
      }, ms),
    );
    const stop = () => {
      for (const timer of timers) clearTimeout(timer);
      for (const type of MEMBER_SCROLLS) window.removeEventListener(type, stop);
      recheck.current = null;
    };
    for (const type of MEMBER_SCROLLS) window.addEventListener(type, stop, { passive: true });
    recheck.current = stop;
  }, [ready, location, sectionRef, comments]);

  useEffect(() => () => recheck.current?.(), []);

  useEffect(() => {
    if (!highlighted) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  return highlighted;
}

interface ItemProps {
  comment: CommentView;
  author: string | null;
  actor: Actor;
  names: readonly string[];
  language: Language;
  highlighted: boolean;
}

type Failure = 'update' | 'delete' | 'resolve' | 'reopen' | 'toggle';

function CommentItem({ comment, author, actor, names, language, highlighted }: ItemProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const editId = useId();
  const name = author ?? t('comments.unknownAuthor');
  const erased = isErasedComment(comment);
  // An erased member's comment only stays in its place: an admin may still delete it, nothing else.
  const may = (action: CommentAction) => mayChangeComment(actor, comment, action);
  const open = comment.requires_answer && !comment.is_resolved;

  async function run(task: () => Promise<void>, failure: Failure): Promise<boolean> {
    setBusy(true);
    try {
      await task();
      return true;
    } catch (error) {
      toastError(failureText(error, t(`comments.failed.${failure}`)));
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function save(event?: FormEvent) {
    event?.preventDefault();
    if (editing === null || editing.trim() === '') return;
    if (await run(() => editComment(actor, comment.id, editing), 'update')) setEditing(null);
  }

  async function remove() {
    if (await run(() => deleteComment(actor, comment.id), 'delete')) setConfirming(false);
  }

  const editKeys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setEditing(null);
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void save();
  };

  const classes = ['comment'];
  if (open) classes.push('comment-open');
  if (comment.is_resolved) classes.push('comment-resolved');
  if (highlighted) classes.push('comment-highlight');

  return (
    <li id={`comment-${comment.id}`} className={classes.join(' ')} tabIndex={-1}>
      <div className="comment-head">
        <strong className="comment-author">{name}</strong>
        <time className="comment-date" dateTime={comment.created_at}>
          {formatCommentDate(comment.created_at, language)}
        </time>
        {open ? <span className="badge badge-amber">{t('comments.awaitingAnswer')}</span> : null}
        {comment.is_resolved ? <span className="badge badge-green">{t('comments.resolved')}</span> : null}
      </div>
      {editing !== null ? (
        <form className="comment-edit" onSubmit={(event) => void save(event)}>
          <label htmlFor={editId} className="sr-only">
            {t('comments.editLabel')}
          </label>
          <MentionInput
            id={editId}
            value={editing}
            onValueChange={setEditing}
            names={names}
            rows={3}
            maxLength={COMMENT_MAX_LENGTH}
            autoFocus
            onKeyDown={editKeys}
          />
          <div className="comment-buttons">
            <button type="submit" className="button button-primary button-small" disabled={busy || editing.trim() === ''}>
              {t('comments.save')}
            </button>
            <button type="button" className="button button-secondary button-small" onClick={() => setEditing(null)}>
              {t('comments.cancel')}
            </button>
          </div>
        </form>
      ) : erased ? (
        <p className="comment-text comment-erased">{t('erasure.comment.deleted')}</p>
      ) : (
        <p className="comment-text">{comment.comment}</p>
      )}
      {editing === null ? (
        <div className="comment-buttons" role="group" aria-label={t('comments.actionsFor', { name })}>
          {may('edit') ? (
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={busy}
              onClick={() => setEditing(comment.comment)}
            >
              {t('comments.edit')}
            </button>
          ) : null}
          {may('resolve') ? (
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={busy}
              onClick={() => void run(() => resolveComment(actor, comment.id), 'resolve')}
            >
              {t('comments.resolve')}
            </button>
          ) : null}
          {may('unresolve') ? (
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={busy}
              onClick={() => void run(() => unresolveComment(actor, comment.id), 'reopen')}
            >
              {t('comments.reopen')}
            </button>
          ) : null}
          {may('toggleRequiresAnswer') ? (
            <button
              type="button"
              className="button button-secondary button-small"
              aria-pressed={comment.requires_answer}
              disabled={busy}
              onClick={() => void run(() => toggleRequiresAnswer(actor, comment.id), 'toggle')}
            >
              {t('comments.requiresAnswer')}
            </button>
          ) : null}
          {may('delete') ? (
            <button
              type="button"
              className="button button-danger-ghost button-small"
              disabled={busy}
              onClick={() => setConfirming(true)}
            >
              {t('comments.delete')}
            </button>
          ) : null}
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('comments.deleteTitle')}
          message={t('comments.deleteText', { name })}
          confirmLabel={t('comments.delete')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </li>
  );
}

/** The new comment: text with @mention autocomplete and the answer request; blank is not sent. */
function CommentForm({ eventId, actor, names }: { eventId: string; actor: Actor; names: readonly string[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [requiresAnswer, setRequiresAnswer] = useState(false);
  const [posting, setPosting] = useState(false);
  const blank = text.trim() === '';

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (blank || posting) return;
    setPosting(true);
    try {
      await addComment(actor, eventId, text, requiresAnswer);
      setText('');
      setRequiresAnswer(false);
    } catch (error) {
      toastError(failureText(error, t('comments.failed.add')));
    } finally {
      setPosting(false);
    }
  }

  return (
    <form className="comment-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={id} className="comment-form-label">
        {t('comments.newLabel')}
      </label>
      <MentionInput
        id={id}
        value={text}
        onValueChange={setText}
        names={names}
        rows={3}
        maxLength={COMMENT_MAX_LENGTH}
        placeholder={t('comments.placeholder')}
        aria-describedby={`${id}-hint`}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
        }}
      />
      <small id={`${id}-hint`} className="field-hint">
        {t('comments.mentionHint')}
      </small>
      <div className="comment-form-row">
        <label className="check">
          <input type="checkbox" checked={requiresAnswer} onChange={(event) => setRequiresAnswer(event.target.checked)} />
          {t('comments.requiresAnswer')}
        </label>
        <button type="submit" className="button button-primary" disabled={blank || posting}>
          {posting ? t('comments.sending') : t('comments.send')}
        </button>
      </div>
    </form>
  );
}
