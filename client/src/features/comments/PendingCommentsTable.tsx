import type { Language } from '@fankurve/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { PendingComment } from '@fankurve/shared';
import { formatEventDate } from '../events/format.js';
import './comments.css';
import { excerpt, formatCommentDate } from './format.js';

/**
 * The admin's fourth task list (SPEC 2 /admin/tasks): comments that wait for an answer — who, on
 * which event (linked to its comments), the text shortened, when, and an Answer link to the same place.
 */
export function PendingCommentsTable({ comments, language }: { comments: readonly PendingComment[]; language: Language }) {
  const { t } = useTranslation();
  return (
    <table className="admin-table">
      <thead>
        <tr>
          <th>{t('admin.username')}</th>
          <th>{t('admin.event')}</th>
          <th>{t('comments.pending.comment')}</th>
          <th>{t('comments.pending.written')}</th>
          <th>{t('admin.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {comments.map((comment) => {
          const anchor = `/events/${encodeURIComponent(comment.event_id)}#comments`;
          const name = comment.username ?? t('comments.unknownAuthor');
          return (
            <tr key={comment.id}>
              <td>{name}</td>
              <td>
                <Link to={anchor}>{comment.event_title}</Link>
                <br />
                <span className="muted">{formatEventDate(comment.event_date, language)}</span>
              </td>
              <td>
                <span className="pending-comment-text" title={comment.comment}>
                  {excerpt(comment.comment)}
                </span>
              </td>
              <td>{formatCommentDate(comment.created_at, language)}</td>
              <td>
                <Link
                  className="button button-primary button-small"
                  to={anchor}
                  aria-label={t('comments.pending.answerTo', { name })}
                >
                  {t('comments.pending.answer')}
                </Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
