import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import type { Profile } from '../api/auth.js';
import { usePendingTaskCount } from '../features/admin/usePendingTaskCount.js';
import { hideBrokenImage } from './AuthLayout.js';
import { lazyPage } from './lazyPage.js';
import { signOut } from './session.js';
import { followServerConfigChanges, useSiteConfig } from './siteConfig.js';
import '../features/comments/nav.css';

// The sync indicator reads the RxDB data layer: its own chunk, so the shell paints before RxDB loads.
const SyncIndicator = lazyPage(() => import('./SyncIndicator.js').then((m) => m.default));
// The unread mentions' badge reads RxDB too (issue 9).
const MentionBadge = lazyPage(() => import('../features/comments/MentionBadge.js').then((m) => m.default));

/**
 * The navigation bar of SPEC 2: site title and logo, links, the username, logout, and the sync state.
 * Below ~640 px the links fold into a menu behind a toggle button. It is painted in the club's theme
 * colour with the text colour that reads on it (--on-theme, app/siteConfig.ts).
 */
export function NavBar({ user }: { user: Profile }) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const [open, setOpen] = useState(false);
  const restricted = user.must_change_password;
  const taskCount = usePendingTaskCount(user.scope === 'admin' && !restricted);

  // The club's title, colour and logo follow an admin's change at once, on every signed-in device.
  useEffect(() => followServerConfigChanges(), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="navbar">
      <div className="navbar-inner">
        <Link to="/events" className="brand">
          {config.logo_filename ? (
            // Keyed by the file: a new logo is a new element (a broken one was hidden).
            <img
              key={config.logo_filename}
              className="brand-logo"
              src={`/uploads/${encodeURIComponent(config.logo_filename)}`}
              alt=""
              onError={hideBrokenImage}
            />
          ) : null}
          <span className="brand-title">{config.site_title}</span>
        </Link>
        {restricted ? null : (
          <Suspense fallback={null}>
            <SyncIndicator />
          </Suspense>
        )}
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="main-menu"
          onClick={() => setOpen((value) => !value)}
        >
          <span className="menu-icon" aria-hidden="true" />
          <span className="menu-label">{t('nav.menu')}</span>
          {restricted ? null : (
            <Suspense fallback={null}>
              <MentionBadge appBadge={false} />
            </Suspense>
          )}
        </button>
        <nav
          id="main-menu"
          className={open ? 'nav-menu open' : 'nav-menu'}
          aria-label={t('nav.main')}
          onClick={(event) => {
            // A followed link closes the folded menu.
            if (event.target instanceof Element && event.target.closest('a')) setOpen(false);
          }}
        >
          {restricted ? null : (
            <ul className="nav-links">
              <li>
                <NavLink to="/events">{t('nav.events')}</NavLink>
              </li>
              {/* ── money links (issue 8) ── */}
              <li>
                <NavLink to="/my-tickets">{t('tickets.navMyTickets')}</NavLink>
              </li>
              {user.scope === 'admin' ? (
                <li>
                  <NavLink to="/debts">{t('tickets.navDebts')}</NavLink>
                </li>
              ) : null}
              {/* ── admin links (issue 8) ── */}
              {user.scope === 'admin' ? (
                <>
                  <li>
                    <NavLink to="/admin/tasks">
                      {t('admin.tasksLink')}
                      {taskCount ? (
                        <span className="badge badge-red nav-badge" aria-label={t('admin.tasksBadge', { count: taskCount })}>
                          {taskCount}
                        </span>
                      ) : null}
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/users">{t('admin.usersLink')}</NavLink>
                  </li>
                </>
              ) : null}
              {user.scope === 'admin' ? (
                <li>
                  <NavLink to="/config">{t('nav.config')}</NavLink>
                </li>
              ) : null}
            </ul>
          )}
          <div className="nav-user">
            {restricted ? (
              <span className="nav-username" title={t('nav.signedInAs', { username: user.username })}>
                {user.username}
              </span>
            ) : (
              <NavLink to="/profile" className="nav-profile" title={t('nav.signedInAs', { username: user.username })}>
                <span className="nav-username">{user.username}</span>
                <Suspense fallback={null}>
                  <MentionBadge />
                </Suspense>
              </NavLink>
            )}
            {restricted ? null : (
              <Link to="/change-password" className="button button-ghost nav-logout">
                {t('auth.changePassword')}
              </Link>
            )}
            <button type="button" className="button button-ghost nav-logout" onClick={() => void signOut()}>
              {t('nav.logout')}
            </button>
          </div>
        </nav>
      </div>
    </header>
  );
}
