import type { Language, PendingComment } from '@fankurve/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatEventDate } from '../../i18n/eventDates.js';
import { shownName } from '../../i18n/memberNames.js';
import { RowTable } from '../../ui/RowTable.js';
import { excerpt, formatCommentDate } from '../comments/index.js';

/**
 * The admin's fourth task list (docs/product.md, Comments, mentions and notifications): comments that
 * wait for an answer — who, on which event (linked to its comments), the text shortened, when, and an
 * Answer link to the same place.
 */
export function PendingCommentsTable({ comments, language }: { comments: readonly PendingComment[]; language: Language }) {
  const { t } = useTranslation();
  const anchor = (comment: PendingComment) => `/events/${encodeURIComponent(comment.event_id)}#comments`;
  const name = (comment: PendingComment) => shownName(comment.username) ?? t('comments.unknownAuthor');
  return (
    <RowTable
      rows={comments}
      columns={[
        { header: t('admin.username'), cell: name },
        {
          header: t('admin.event'),
          cell: (comment) => (
            <>
              <Link to={anchor(comment)}>{comment.event_title}</Link>
              <br />
              <span className="muted">{formatEventDate(comment.event_date, language)}</span>
            </>
          ),
        },
        {
          header: t('comments.pending.comment'),
          cell: (comment) => (
            <span className="pending-comment-text" title={comment.comment}>
              {excerpt(comment.comment)}
            </span>
          ),
        },
        { header: t('comments.pending.written'), cell: (comment) => formatCommentDate(comment.created_at, language) },
        {
          header: t('admin.actions'),
          cell: (comment) => (
            <Link
              className="button button-primary button-small"
              to={anchor(comment)}
              aria-label={t('comments.pending.answerTo', { name: name(comment) })}
            >
              {t('comments.pending.answer')}
            </Link>
          ),
        },
      ]}
    />
  );
}
