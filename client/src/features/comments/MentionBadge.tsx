import { useTranslation } from 'react-i18next';
import { useUnreadMentionCount } from '../../data/index.js';
import './comments.css';
import { useAppBadge } from './useAppBadge.js';

/**
 * The yellow badge of unread mentions beside the username in the nav bar (docs/product.md, Screens), hidden at 0; it
 * also sets the installed app's icon badge (`appBadge`; the copy on the folded menu's button does not). The count comes from the device's mentions, which the
 * change stream keeps live, so nothing polls. Its own chunk (lazy from the nav bar): the shell does
 * not load RxDB.
 */
export default function MentionBadge({ appBadge = true }: { appBadge?: boolean }) {
  const { t } = useTranslation();
  const count = useUnreadMentionCount();
  useAppBadge(count, appBadge);
  if (!count) return null;
  return (
    <span className="badge badge-yellow nav-badge" aria-label={t('comments.mentions.badge', { count })}>
      {count}
    </span>
  );
}

/** The unread mentions of one event, as a small yellow badge on its card. */
export function EventMentionBadge({ eventId }: { eventId: string }) {
  const { t } = useTranslation();
  const count = useUnreadMentionCount(eventId);
  if (!count) return null;
  return (
    <span className="badge badge-yellow event-mention-badge" aria-label={t('comments.mentions.eventBadge', { count })}>
      @ {count}
    </span>
  );
}
