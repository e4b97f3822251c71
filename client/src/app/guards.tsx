import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { Loading } from '../ui/Loading.js';
import { AppLayout } from './AppLayout.js';
import { AuthLayout } from './AuthLayout.js';
import { useSession, type Session } from '../session/session.js';
import { useSiteConfig } from '../session/siteConfig.js';

export const CHANGE_PASSWORD_PATH = '/change-password';

/** Where a signed-in visitor of an anonymous page goes: back to the page that sent them to login, or /events. */
function returnPath(state: unknown): string {
  const from = (state as { from?: { pathname?: unknown; search?: unknown; hash?: unknown } } | null)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/') || from.pathname.startsWith('//'))
    return '/events';
  if (from.pathname === '/login' || from.pathname === '/register') return '/events';
  return `${from.pathname}${typeof from.search === 'string' ? from.search : ''}${typeof from.hash === 'string' ? from.hash : ''}`;
}

/** While the session loads: the same bar as the app shell of index.html, then the Loading text. */
function SessionLoading({ session }: { session: Session }) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  return (
    <div className="app">
      <header className="navbar">
        <div className="navbar-inner">
          <span className="brand">
            <span className="brand-title">{config.site_title}</span>
          </span>
        </div>
      </header>
      <Loading note={session.status === 'loading' && session.offline ? t('common.offlineRetrying') : undefined} />
    </div>
  );
}

/** Login and register: anonymous only; signed-in users go to /events. */
export function AnonymousOnly() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <SessionLoading session={session} />;
  if (session.status === 'signedIn') return <Navigate to={returnPath(location.state)} replace />;
  return (
    <AuthLayout>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </AuthLayout>
  );
}

/**
 * Pages for everyone (the imprint and the privacy notice: docs/product.md, Screens): in the signed-in
 * frame for a signed-in user (also one who must still change the password: these pages are no one's
 * secret), in the sign-in frame for anyone else.
 */
export function EveryoneFrame() {
  const session = useSession();
  if (session.status === 'loading') return <SessionLoading session={session} />;
  const page = (
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
  if (session.status === 'signedIn') return <AppLayout user={session.user}>{page}</AppLayout>;
  return <AuthLayout>{page}</AuthLayout>;
}

/**
 * Every other route: Loading while the session loads, anonymous visitors to /login, a user who
 * must change the password to /change-password from everywhere.
 */
export function RequireAuth() {
  const session = useSession();
  const location = useLocation();
  if (session.status === 'loading') return <SessionLoading session={session} />;
  if (session.status === 'anonymous') return <Navigate to="/login" replace state={{ from: location }} />;
  if (session.user.must_change_password && location.pathname !== CHANGE_PASSWORD_PATH) {
    return <Navigate to={CHANGE_PASSWORD_PATH} replace />;
  }
  return (
    <AppLayout user={session.user}>
      <Suspense fallback={<Loading />}>
        <Outlet />
      </Suspense>
    </AppLayout>
  );
}
