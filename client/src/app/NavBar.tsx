import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import type { Profile } from '../api/auth.js';
import { hideBrokenImage } from './AuthLayout.js';
import { lazyPage } from './lazyPage.js';
import { signOut } from './session.js';
import { useSiteConfig } from './siteConfig.js';

// The sync indicator reads the RxDB data layer: its own chunk, so the shell paints before RxDB loads.
const SyncIndicator = lazyPage(() => import('./SyncIndicator.js').then((m) => m.default));

/**
 * The navigation bar of SPEC 2: site title and logo, links, the username, logout, and the sync state.
 * Below ~640 px the links fold into a menu behind a toggle button.
 */
export function NavBar({ user }: { user: Profile }) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const [open, setOpen] = useState(false);
  const restricted = user.must_change_password;

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
            <img className="brand-logo" src={`/uploads/${config.logo_filename}`} alt="" onError={hideBrokenImage} />
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
              {/* ── admin links (issue 8) ── */}
              {user.scope === 'admin' ? (
                <li>
                  <NavLink to="/config">{t('nav.config')}</NavLink>
                </li>
              ) : null}
            </ul>
          )}
          <div className="nav-user">
            <span className="nav-username" title={t('nav.signedInAs', { username: user.username })}>
              {user.username}
            </span>
            <button type="button" className="button button-ghost nav-logout" onClick={() => void signOut()}>
              {t('nav.logout')}
            </button>
          </div>
        </nav>
      </div>
    </header>
  );
}
