import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { markAllMentionsRead, markMentionRead, useMyMentions, type MentionView } from '../../data/index.js';
import { currentLanguage } from '../../i18n/index.js';
import { shownName } from '../../i18n/memberNames.js';
import { toastError } from '../../ui/toast.js';
import './comments.css';
import { commentPath, failureText, formatCommentDate } from './format.js';

/**
 * The signed-in member's mentions (docs/product.md, Comments, mentions and notifications), newest first in a list that
 * scrolls at a maximum height; unread ones are emphasised. Opening one marks it read and goes to
 * /events/{eventId}#comment-{commentId} — also when marking fails. Read from the device: works offline.
 */
export function MentionList({ className = 'card' }: { className?: string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const user = useUser();
  const mentions = useMyMentions();
  const language = currentLanguage();
  const [busy, setBusy] = useState(false);
  const unread = mentions?.filter((mention) => !mention.is_read).length ?? 0;

  async function markAll() {
    setBusy(true);
    try {
      await markAllMentionsRead(user.id);
    } catch (error) {
      toastError(failureText(error, t('comments.failed.markRead')));
    } finally {
      setBusy(false);
    }
  }

  const opened = (mention: MentionView) => {
    if (mention.is_read) return;
    // The link navigates in any case; a failure is only logged.
    markMentionRead(user.id, mention.id).catch((error: unknown) => console.warn('Mention not marked read', error));
  };

  return (
    <section className={`${className} mentions`} aria-labelledby={titleId}>
      <div className="mentions-head">
        <h2 id={titleId} className="card-title">
          {t('comments.mentions.title')}
          {unread > 0 ? (
            <span className="badge badge-yellow" aria-label={t('comments.mentions.badge', { count: unread })}>
              {unread}
            </span>
          ) : null}
        </h2>
        <button
          type="button"
          className="button button-secondary button-small"
          disabled={busy || unread === 0}
          onClick={() => void markAll()}
        >
          {t('comments.mentions.markAllRead')}
        </button>
      </div>
      {mentions === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : mentions.length === 0 ? (
        <p className="muted">{t('comments.mentions.empty')}</p>
      ) : (
        <ul className="plain-list mention-list">
          {mentions.map((mention) => (
            <li key={mention.id} className={mention.is_read ? 'mention' : 'mention mention-unread'}>
              <Link to={commentPath(mention.event_id, mention.comment_id)} onClick={() => opened(mention)}>
                <span className="mention-what">
                  {mention.is_read ? null : <span className="sr-only">{t('comments.mentions.unread')}: </span>}
                  {t('comments.mentions.line', {
                    name: shownName(mention.commenter_username) ?? t('comments.unknownAuthor'),
                    event: mention.event_title ?? t('comments.mentions.unknownEvent'),
                  })}
                </span>
                <span className="mention-text">{mention.comment ?? t('comments.mentions.commentMissing')}</span>
                <time className="mention-date" dateTime={mention.created_at}>
                  {formatCommentDate(mention.created_at, language)}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
