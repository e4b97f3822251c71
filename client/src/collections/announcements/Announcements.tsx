import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { deleteAnnouncement } from './api.js';
import { useSyncState } from '../../data/index.js';
import type { AnnouncementView } from './data.js';
import { formatDay } from '../../i18n/dates.js';
import { currentLanguage } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { FoldHeading } from '../../ui/FoldHeading.js';
import { useFold } from '../../ui/useFold.js';
import { useUser } from '../../session/session.js';
import { AnnouncementForm, failureText } from './AnnouncementForm.js';
import { markAnnouncementsRead, useReadAnnouncements } from './readState.js';
import './announcements.css';

/** How many announcements show before "show all" (docs/product.md, Screens). */
const SHOWN_AT_FIRST = 3;

/**
 * The club's news above the events list, from the device's database (offline too), pinned first;
 * the page reads them (`useAnnouncements`) so it shows its sections together. Admins post, edit and
 * delete them online; the list follows through the sync.
 */
export function Announcements({ announcements }: { announcements: AnnouncementView[] }) {
  const { t } = useTranslation();
  const user = useUser();
  const isAdmin = user.scope === 'admin';
  const online = useSyncState('online');
  const headingId = useId();
  const listId = useId();
  const [showAll, setShowAll] = useState(false);
  const [editing, setEditing] = useState<AnnouncementView | 'new' | null>(null);
  const [removing, setRemoving] = useState<AnnouncementView | null>(null);
  const [busy, setBusy] = useState(false);
  const fold = useFold();
  const read = useReadAnnouncements(user.id);
  const isUnread = (announcement: AnnouncementView) => announcement.created_by !== user.id && !read.has(announcement.id);
  const unread = announcements.filter(isUnread);

  // What the member saw here counts as read once they leave the page (the marker stays while they read).
  // Folded on a phone, nothing was seen until the member opens the news.
  const seen = useRef<{ ids: string[]; existing: string[]; opened: boolean }>({ ids: [], existing: [], opened: false });
  if (!fold.folded) seen.current.opened = true;
  seen.current.existing = announcements.map((announcement) => announcement.id);
  seen.current.ids = seen.current.opened ? seen.current.existing : [];
  useEffect(() => {
    const current = seen.current;
    return () => markAnnouncementsRead(user.id, current.ids, current.existing);
  }, [user.id]);

  // Nothing at all for a member when there is no news.
  if (announcements.length === 0 && !isAdmin) return null;

  const shown = showAll ? announcements : announcements.slice(0, SHOWN_AT_FIRST);
  const hidden = announcements.length - SHOWN_AT_FIRST;

  async function remove() {
    if (!removing) return;
    setBusy(true);
    try {
      await deleteAnnouncement(removing.id);
      toastSuccess(t('announcements.deleted'));
      setRemoving(null);
    } catch (error) {
      toastError(failureText(error, t('announcements.deleteFailed')));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="announcements" aria-labelledby={headingId}>
      <div className="announcements-head">
        <h2 className="announcements-heading">
          <FoldHeading
            fold={fold}
            id={headingId}
            controls={listId}
            title={t('announcements.heading')}
            badge={
              unread.length > 0 ? (
                <span className="announcements-unread"> {t('announcements.unread', { count: unread.length })}</span>
              ) : null
            }
          />
        </h2>
        {unread.length > 0 && !fold.folded ? (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => markAnnouncementsRead(user.id, seen.current.existing, seen.current.existing)}
          >
            {t('announcements.markRead')}
          </button>
        ) : null}
        {isAdmin ? (
          <button type="button" className="button button-small button-ghost" disabled={!online} onClick={() => setEditing('new')}>
            {t('announcements.post')}
          </button>
        ) : null}
      </div>
      {isAdmin && !online ? <small className="announcements-hint">{t('announcements.postOffline')}</small> : null}
      <div className="fold-body" id={listId}>
        {fold.folded ? (
          announcements.length > 0 ? (
            <p className="fold-teaser">
              {announcements[0]!.title}
              {announcements.length > 1 ? (
                <span className="muted"> {t('announcements.more', { count: announcements.length - 1 })}</span>
              ) : null}
            </p>
          ) : null
        ) : (
          <>
            {shown.length > 0 ? (
              <ul className="plain-list announcement-list">
                {shown.map((announcement) => (
                  <AnnouncementItem
                    key={announcement.id}
                    announcement={announcement}
                    unread={isUnread(announcement)}
                    admin={isAdmin}
                    online={online}
                    onEdit={() => setEditing(announcement)}
                    onDelete={() => setRemoving(announcement)}
                  />
                ))}
              </ul>
            ) : null}
            {hidden > 0 ? (
              <button
                type="button"
                className="button button-small button-secondary"
                aria-expanded={showAll}
                onClick={() => setShowAll(!showAll)}
              >
                {showAll ? t('announcements.showFewer') : t('announcements.showAll', { count: announcements.length })}
              </button>
            ) : null}
          </>
        )}
      </div>
      {editing ? <AnnouncementForm announcement={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      {removing ? (
        <ConfirmDialog
          title={t('announcements.deleteTitle')}
          message={t('announcements.deleteText', { title: removing.title })}
          confirmLabel={t('announcements.delete')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setRemoving(null)}
        />
      ) : null}
    </section>
  );
}

interface ItemProps {
  announcement: AnnouncementView;
  unread: boolean;
  admin: boolean;
  online: boolean;
  onEdit: () => void;
  onDelete: () => void;
}

function AnnouncementItem({ announcement, unread, admin, online, onEdit, onDelete }: ItemProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const language = currentLanguage();
  return (
    <li>
      <article className={announcement.pinned ? 'announcement announcement-pinned' : 'announcement'} aria-labelledby={titleId}>
        <p className="announcement-meta">
          {unread ? <span className="announcement-new">{t('announcements.new')}</span> : null}
          {announcement.pinned ? (
            <span className="announcement-pin">
              <PinIcon />
              {t('announcements.pinned')}
            </span>
          ) : null}
          <time dateTime={announcement.created_at}>{formatDay(announcement.created_at, language)}</time>
        </p>
        <h3 id={titleId} className="announcement-title">
          {announcement.title}
        </h3>
        <p className="announcement-text">{announcement.text}</p>
        {announcement.event ? (
          <p className="announcement-event">
            {t('announcements.event')}:{' '}
            <Link to={`/events/${encodeURIComponent(announcement.event.id)}`}>{announcement.event.title}</Link>
          </p>
        ) : null}
        {admin ? (
          <div className="announcement-actions">
            <button type="button" className="button button-small button-ghost" disabled={!online} onClick={onEdit}>
              {t('announcements.edit')}
              <span className="sr-only"> {announcement.title}</span>
            </button>
            <button type="button" className="button button-small button-danger-ghost" disabled={!online} onClick={onDelete}>
              {t('announcements.delete')}
              <span className="sr-only"> {announcement.title}</span>
            </button>
          </div>
        ) : null}
      </article>
    </li>
  );
}

/** A push pin (Material Symbols' push_pin, Apache 2.0). */
function PinIcon() {
  return (
    <svg className="announcement-pin-icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M16 9V4h1c.55 0 1-.45 1-1s-.45-1-1-1H7c-.55 0-1 .45-1 1s.45 1 1 1h1v5c0 1.66-1.34 3-3 3v2h5.97v7l1 1 1-1v-7H19v-2c-1.66 0-3-1.34-3-3z"
      />
    </svg>
  );
}
