import { useEffect } from 'react';
import { BrowserRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';
import { LoginPage } from '../features/auth/LoginPage.js';
import { applyUpdateOnNavigation } from '../pwa/register.js';
import { ErrorBoundary } from '../ui/ErrorBoundary.js';
import { Toaster } from '../ui/Toaster.js';
import { AnonymousOnly, CHANGE_PASSWORD_PATH, EveryoneFrame, RequireAuth } from './guards.js';
import { lazyPage } from './lazyPage.js';
import { NotFoundPage } from './NotFoundPage.js';
import { useSession } from '../session/session.js';

// Screens are their own chunks, except the tiny login page (the first page of every new visitor: no
// extra round trip before it paints). The RxDB data layer is only reached from the signed-in screens.
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage.js').then((m) => m.RegisterPage));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/ForgotPasswordPage.js').then((m) => m.ForgotPasswordPage));
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage.js').then((m) => m.ResetPasswordPage));
const ChangePasswordPage = lazyPage(() => import('../features/auth/ChangePasswordPage.js').then((m) => m.ChangePasswordPage));
const EventsPage = lazyPage(() => import('../features/events/EventsPage.js').then((m) => m.EventsPage));
const EventDetailPage = lazyPage(() => import('../features/eventDetail/EventDetailPage.js').then((m) => m.EventDetailPage));

const AdminTasksPage = lazyPage(() => import('../features/admin/AdminTasksPage.js').then((m) => m.AdminTasksPage));
const UsersPage = lazyPage(() => import('../features/admin/UsersPage.js').then((m) => m.UsersPage));
const InvitesPage = lazyPage(() => import('../features/admin/InvitesPage.js').then((m) => m.InvitesPage));
const ImprintPage = lazyPage(() => import('../features/legal/LegalPage.js').then((m) => m.ImprintPage));
const PrivacyPage = lazyPage(() => import('../features/legal/LegalPage.js').then((m) => m.PrivacyPage));
const AuditLogPage = lazyPage(() => import('../features/admin/AuditLogPage.js').then((m) => m.AuditLogPage));
const UserProfilePage = lazyPage(() => import('../features/admin/UserProfilePage.js').then((m) => m.UserProfilePage));
const ConfigPage = lazyPage(() => import('../features/config/ConfigPage.js').then((m) => m.ConfigPage));
const StadiumDetailPage = lazyPage(() => import('../features/stadiums/StadiumDetailPage.js').then((m) => m.StadiumDetailPage));
const MyTicketsPage = lazyPage(() => import('../features/tickets/MyTicketsPage.js').then((m) => m.MyTicketsPage));
const DebtsPage = lazyPage(() => import('../features/tickets/DebtsPage.js').then((m) => m.DebtsPage));
const ProfilePage = lazyPage(() => import('../features/profile/ProfilePage.js').then((m) => m.ProfilePage));
const LoyaltyPage = lazyPage(() => import('../features/loyalty/LoyaltyPage.js').then((m) => m.LoyaltyPage));
const StatsPage = lazyPage(() => import('../features/stats/StatsPage.js').then((m) => m.StatsPage));
const PrintListsPage = lazyPage(() => import('../features/exports/PrintListsPage.js').then((m) => m.PrintListsPage));
const BoardingPage = lazyPage(() => import('../collections/boardings/index.js').then((m) => m.BoardingPage));
const SeasonAccountsPage = lazyPage(() => import('../features/ledger/SeasonAccounts.js').then((m) => m.SeasonAccountsPage));

/** The screens a signed-in member opens the app on, by address (the routes below). */
const START_SCREENS: Record<string, { preload(): Promise<unknown> }> = {
  '/': EventsPage,
  '/events': EventsPage,
  '/my-tickets': MyTicketsPage,
  '/debts': DebtsPage,
  '/allesfahrer': LoyaltyPage,
  '/stats': StatsPage,
  '/profile': ProfilePage,
  '/admin/tasks': AdminTasksPage,
  '/users': UsersPage,
};

function startScreenOf(pathname: string): { preload(): Promise<unknown> } | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (/^\/events\/[^/]+$/.test(path)) return EventDetailPage;
  return START_SCREENS[path] ?? null;
}

/**
 * Loads the screen of a signed-in start URL right away, in parallel with the app shell and the
 * device database. The first render waits for it (a little): a screen that suspends on its first
 * render is revealed only after React's fallback delay, which a warm start cannot afford, and its
 * chunk would load inside the render's task.
 */
export async function preloadStartScreen(pathname: string): Promise<void> {
  const page = startScreenOf(pathname);
  if (!page) return;
  await Promise.race([page.preload().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 1500))]);
}

/**
 * The login page. While the member types, the events screen's chunk loads, so the work after the
 * click is the sign-in, opening the device database and the first pull.
 */
function LoginScreen() {
  useEffect(() => {
    const timer = setTimeout(() => EventsPage.preload().catch(() => undefined), 300);
    return () => clearTimeout(timer);
  }, []);
  return <LoginPage />;
}

/**
 * The frame of an unknown address: a signed-in user keeps the navigation bar (the signed-in frame and
 * its guards); an anonymous visitor sees the page alone, as on the sign-in screens.
 */
function NotFoundFrame() {
  const session = useSession();
  if (session.status !== 'anonymous') return <RequireAuth />;
  return (
    <main className="app-main" id="main">
      <Outlet />
    </main>
  );
}

/** A new service worker took over: the next in-app navigation loads the new version. */
function UpdateOnNavigation() {
  const { pathname } = useLocation();
  useEffect(() => applyUpdateOnNavigation(pathname), [pathname]);
  return null;
}

/**
 * The routes (docs/product.md, Screens). A declarative <BrowserRouter>: the app reads its data from
 * the local database, so route loaders are not needed, and the router core stays out of the first
 * page (about 16 KB gzip).
 */
export function AppRoutes() {
  return (
    <BrowserRouter>
      <UpdateOnNavigation />
      <ErrorBoundary>
        <Routes>
          <Route element={<AnonymousOnly />}>
            <Route path="/login" element={<LoginScreen />} />
            <Route path="/register" element={<RegisterPage />} />
            {/* ── recovery routes ── */}
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
          </Route>
          <Route element={<RequireAuth />}>
            <Route path="/" element={<Navigate to="/events" replace />} />
            <Route path={CHANGE_PASSWORD_PATH} element={<ChangePasswordPage />} />
            <Route path="/events" element={<EventsPage />} />
            <Route path="/events/:id" element={<EventDetailPage />} />
            <Route path="/events/:id/print" element={<PrintListsPage />} />
            <Route path="/events/:id/boarding/:transportId" element={<BoardingPage />} />
            <Route path="/config" element={<ConfigPage />} />
            <Route path="/stadiums/:id" element={<StadiumDetailPage />} />
            {/* ── money routes ── */}
            <Route path="/my-tickets" element={<MyTicketsPage />} />
            <Route path="/debts" element={<DebtsPage />} />
            <Route path="/debts/accounts" element={<SeasonAccountsPage />} />
            <Route path="/allesfahrer" element={<LoyaltyPage />} />
            <Route path="/stats" element={<StatsPage />} />
            {/* ── admin routes ── */}
            <Route path="/admin/tasks" element={<AdminTasksPage />} />
            <Route path="/admin/log" element={<AuditLogPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route path="/admin/invites" element={<InvitesPage />} />
            <Route path="/users/:id" element={<UserProfilePage />} />
            {/* ── profile route ── */}
            <Route path="/profile" element={<ProfilePage />} />
          </Route>
          {/* ── pages for everyone, signed in or not ── */}
          <Route element={<EveryoneFrame />}>
            <Route path="/impressum" element={<ImprintPage />} />
            <Route path="/datenschutz" element={<PrivacyPage />} />
          </Route>
          <Route element={<NotFoundFrame />}>
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </ErrorBoundary>
      <Toaster />
    </BrowserRouter>
  );
}
