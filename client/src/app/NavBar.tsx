import { Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router-dom';
import type { Profile } from '../api/auth.js';
import { usePendingTaskCount } from '../features/admin/usePendingTaskCount.js';
import { hideBrokenImage } from './AuthLayout.js';
import { lazyPage } from './lazyPage.js';
import { LegalLinks } from './LegalLinks.js';
import { signOut } from '../session/session.js';
import { followServerConfigChanges, useSiteConfig } from '../session/siteConfig.js';
import '../features/comments/nav.css';

// The sync indicator reads the RxDB data layer: its own chunk, so the shell paints before RxDB loads.
const SyncIndicator = lazyPage(() => import('./SyncIndicator.js').then((m) => m.default));
// The unread mentions' badge reads RxDB too.
const MentionBadge = lazyPage(() => import('../features/comments/MentionBadge.js').then((m) => m.default));
// The open offers of returned tickets (they run out, so the bar shows them on every page).
const OfferBadge = lazyPage(() => import('../features/contingents/OfferBadge.js').then((m) => m.default));

interface NavItem {
  to: string;
  label: ReactNode;
}

/** The links of the bar, in the order they give way: the last ones fold into the menu first. */
function useNavItems(user: Profile): NavItem[] {
  const { t } = useTranslation();
  const restricted = user.must_change_password;
  const admin = user.scope === 'admin';
  const taskCount = usePendingTaskCount(admin && !restricted);
  if (restricted) return [];
  const items: NavItem[] = [
    { to: '/events', label: t('nav.events') },
    { to: '/my-tickets', label: t('tickets.navMyTickets') },
    { to: '/allesfahrer', label: t('loyalty.nav') },
  ];
  if (!admin) return items;
  return [
    ...items,
    { to: '/debts', label: t('tickets.navDebts') },
    {
      to: '/admin/tasks',
      label: (
        <>
          {t('admin.tasksLink')}
          {taskCount ? (
            <span className="badge badge-red nav-badge" aria-label={t('admin.tasksBadge', { count: taskCount })}>
              {taskCount}
            </span>
          ) : null}
        </>
      ),
    },
    { to: '/users', label: t('admin.usersLink') },
    { to: '/config', label: t('nav.config') },
  ];
}

/** The username (the profile link), the password change and the logout. */
function UserControls({ user }: { user: Profile }) {
  const { t } = useTranslation();
  const restricted = user.must_change_password;
  const title = t('nav.signedInAs', { username: user.username });
  return (
    <div className="nav-user">
      {restricted ? (
        <span className="nav-username" title={title}>
          {user.username}
        </span>
      ) : (
        <>
          <Suspense fallback={null}>
            <OfferBadge />
          </Suspense>
          <NavLink to="/profile" className="nav-profile" title={title}>
            <span className="nav-username">{user.username}</span>
            <Suspense fallback={null}>
              <MentionBadge appBadge={false} />
            </Suspense>
          </NavLink>
        </>
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
  );
}

/** How much of the bar is shown in its row: the first `links` links, and the user's controls or not. */
interface RowLayout {
  links: number;
  user: boolean;
}

const FOLDED: RowLayout = { links: 0, user: false };
const sameRow = (a: RowLayout, b: RowLayout) => a.links === b.links && a.user === b.user;

const gapOf = (element: Element) => parseFloat(getComputedStyle(element).columnGap) || 0;
const widthOf = (element: Element | null | undefined) => element?.getBoundingClientRect().width ?? 0;

/**
 * The widest row that fits the nav's room, from the natural widths of the hidden ruler (a copy of every
 * item laid out in one row): everything, or the first links with the menu button (docs/architecture.md,
 * Nav bar).
 */
function fittingRow(room: number, ruler: HTMLElement): RowLayout {
  const list = ruler.querySelector('.nav-links');
  const links = list ? [...list.children].map(widthOf) : [];
  const user = widthOf(ruler.querySelector('.nav-user'));
  const toggle = widthOf(ruler.querySelector('.ruler-toggle'));
  const rowGap = gapOf(ruler);
  const linkGap = list ? gapOf(list) : 0;
  const linksWidth = (count: number) =>
    links.slice(0, count).reduce((sum, width) => sum + width, 0) + Math.max(0, count - 1) * linkGap;
  // Half a pixel of slack against rounding.
  const fits = (width: number) => width <= room + 0.5;
  if (fits(linksWidth(links.length) + (links.length ? rowGap : 0) + user)) return { links: links.length, user: true };
  for (let count = links.length; count > 0; count--) {
    if (fits(linksWidth(count) + rowGap + toggle)) return { links: count, user: false };
  }
  return FOLDED;
}

/**
 * The row fitted last at this window width, language, items and username length: a page load starts
 * from it, so the first measurement usually finds nothing to change (docs/architecture.md, Nav bar).
 */
const FITTED_ROW_KEY = 'navRow';

function rememberedRow(shape: string): RowLayout {
  try {
    const saved = JSON.parse(localStorage.getItem(FITTED_ROW_KEY) ?? 'null') as { shape?: unknown; row?: RowLayout } | null;
    if (saved?.shape === shape && Number.isInteger(saved.row?.links) && typeof saved.row?.user === 'boolean') return saved.row!;
  } catch {
    // storage blocked or a broken entry: measured from the folded row
  }
  return FOLDED;
}

function rememberRow(shape: string, row: RowLayout): void {
  try {
    localStorage.setItem(FITTED_ROW_KEY, JSON.stringify({ shape, row }));
  } catch {
    // storage blocked: the next load measures from the folded row
  }
}

/**
 * Keeps the row's layout fitted to the nav's room: measured again whenever the room (window, logo,
 * title, sync state) or the items' natural widths (language, username, badges) change. `shape` names
 * what the fit depends on besides the measured widths (language, items, user).
 */
function useFittingRow(
  nav: React.RefObject<HTMLElement | null>,
  ruler: React.RefObject<HTMLElement | null>,
  shape: string,
): RowLayout {
  // Read once, at mount: the window's width is cheap while the page is still the shell.
  const [layout, setLayout] = useState<RowLayout>(() => rememberedRow(`${window.innerWidth} ${shape}`));
  const shown = useRef(layout);
  useLayoutEffect(() => {
    shown.current = layout;
    nav.current?.classList.remove('nav-fitting');
  }, [layout, nav]);
  const measure = useCallback(() => {
    if (!nav.current || !ruler.current) return;
    const next = fittingRow(nav.current.clientWidth, ruler.current);
    rememberRow(`${window.innerWidth} ${shape}`, next);
    // A row that no longer fits is hidden until React renders the fitted one, in a task of its own:
    // no frame shows it, and the page's pending renders and effects are not pulled into this frame's
    // task, as a flushSync would (docs/architecture.md, Nav bar).
    if (!sameRow(next, shown.current)) nav.current.classList.add('nav-fitting');
    setLayout((pending) => (sameRow(pending, next) ? pending : next));
  }, [nav, ruler, shape]);
  // Measured when the ResizeObserver reports (after the browser's layout, also right after
  // `observe`), never by reading sizes in the render's task: that would force a layout of the whole
  // page into it (docs/architecture.md, Loading).
  useLayoutEffect(() => {
    const observer = new ResizeObserver(measure);
    for (const element of [nav.current, ruler.current]) if (element) observer.observe(element);
    return () => observer.disconnect();
  }, [measure, nav, ruler]);
  return layout;
}

function NavLinks({ items }: { items: NavItem[] }) {
  if (!items.length) return null;
  return (
    <ul className="nav-links">
      {items.map((item) => (
        <li key={item.to}>
          <NavLink to={item.to}>{item.label}</NavLink>
        </li>
      ))}
    </ul>
  );
}

/**
 * The navigation bar: site title and logo, the sync state, the links, the username, the password change
 * and the logout, always one row. What does not fit the row (measured, whatever the language, username,
 * logo or sync state) folds into a menu behind a toggle button (docs/architecture.md, Nav bar). It is
 * painted in the club's theme colour with the text colour that reads on it (--on-theme, app/siteConfig.ts).
 */
export function NavBar({ user }: { user: Profile }) {
  const { t, i18n } = useTranslation();
  const config = useSiteConfig();
  const [open, setOpen] = useState(false);
  const restricted = user.must_change_password;
  const items = useNavItems(user);
  const navRef = useRef<HTMLElement>(null);
  const rulerRef = useRef<HTMLDivElement>(null);
  const row = useFittingRow(navRef, rulerRef, `${i18n.language} ${user.scope} ${user.username.length} ${items.length}`);
  const folded = !row.user;

  // The club's title, colour and logo follow an admin's change at once, on every signed-in device.
  useEffect(() => followServerConfigChanges(), []);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    // A tap outside the nav closes the menu too.
    const onPointer = (event: PointerEvent) => {
      if (event.target instanceof Node && !navRef.current?.contains(event.target)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const toggleContent = (
    <>
      <span className="menu-icon" aria-hidden="true" />
      <span className="menu-label">{t('nav.menu')}</span>
      {restricted ? null : (
        <Suspense fallback={null}>
          <OfferBadge link={false} />
          <MentionBadge appBadge={false} />
        </Suspense>
      )}
    </>
  );

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
        <nav
          ref={navRef}
          className="nav"
          aria-label={t('nav.main')}
          onClick={(event) => {
            // A followed link closes the folded menu.
            if (event.target instanceof Element && event.target.closest('a')) setOpen(false);
          }}
        >
          <div className="nav-row">
            <NavLinks items={items.slice(0, row.links)} />
            {row.user ? <UserControls user={user} /> : null}
          </div>
          {folded ? (
            <button
              type="button"
              className="menu-toggle"
              aria-expanded={open}
              aria-controls="main-menu"
              onClick={() => setOpen((value) => !value)}
            >
              {toggleContent}
            </button>
          ) : null}
          <div id="main-menu" className="nav-menu" hidden={!folded || !open}>
            <NavLinks items={items.slice(row.links)} />
            {/* The installed app's icon badge is set once, by the copy that is always mounted. */}
            {row.user ? null : <UserControls user={user} />}
            <LegalLinks className="nav-legal" />
          </div>
        </nav>
        {/* Every item at its natural width, for measuring only: hidden, out of the tab order and the accessibility tree. */}
        <div className="nav-ruler" aria-hidden="true" inert>
          <div className="nav-ruler-row" ref={rulerRef}>
            <NavLinks items={items} />
            <UserControls user={user} />
            {/* Styled as the toggle, under its own class: the page has one .menu-toggle. */}
            <span className="ruler-toggle">{toggleContent}</span>
          </div>
        </div>
      </div>
      {restricted ? null : <AppIconBadge />}
    </header>
  );
}

/** Sets the installed app's icon badge to the unread mentions (the copies in the bar do not). */
function AppIconBadge() {
  return (
    <span hidden>
      <Suspense fallback={null}>
        <MentionBadge />
      </Suspense>
    </span>
  );
}
