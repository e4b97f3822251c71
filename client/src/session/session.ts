import type { NoticeDoc } from '@fankurve/shared';
import { LANGUAGES, TOKEN_STORAGE_KEY, type Language } from '@fankurve/shared/constants';
import type { MessageCode } from '@fankurve/shared/registry';
import { useSyncExternalStore } from 'react';
import { fetchProfile, logout, type Profile, type SignedIn } from '../api/auth.js';
import type * as DataModule from '../data/index.js';
import { isApiError, onApiMustChangePassword, onApiUnauthorized, readToken } from '../api/client.js';
import { deleteDeviceValue, WORKER_SESSION_KEY, writeDeviceValue } from '../data/deviceStore.js';
import { askPersistentStorage } from '../pwa/storage.js';
import { park, readParkedChanges, takeParkedChanges } from './parkedChanges.js';

/**
 * The session (docs/architecture.md, Sessions, throttles and limits; Readings of the product
 * specification): the token lives in localStorage 'token', the profile is cached in 'profile'. With a
 * cached profile the app starts signed in at once, also with no network; the token is dropped only
 * when the server refuses it (401).
 */
export type Session =
  | { status: 'anonymous' }
  /** A token but no profile yet; `offline` when the profile could not be fetched for want of a network. */
  | { status: 'loading'; offline: boolean }
  | { status: 'signedIn'; token: string; user: Profile };

export const PROFILE_STORAGE_KEY = 'profile';

const ANONYMOUS: Session = { status: 'anonymous' };

let state: Session = ANONYMOUS;
const listeners = new Set<() => void>();

function setState(next: Session): void {
  state = next;
  for (const listener of listeners) listener();
  scheduleSync();
}

export const getSession = (): Session => state;

/** Calls the listener after every change of the session; returns the unsubscribe. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/**
 * What the session has to tell the member. The session sits below i18n and the interface
 * (docs/architecture.md, Layers), so the app shell words and shows it (`app/sessionMessages.ts`).
 */
export type SessionMessage =
  /** A server notice the data layer received (e.g. a refused change). */
  | { kind: 'notice'; notice: NoticeDoc }
  /** The server ended the session (e.g. the token was refused). */
  | { kind: 'ended'; reason: MessageCode }
  /** Signed out with changes the server has not had yet: they stay for the member's next sign-in here. */
  | { kind: 'changesKept'; count: number };

const messageListeners = new Set<(message: SessionMessage) => void>();

export function onSessionMessage(listener: (message: SessionMessage) => void): () => void {
  messageListeners.add(listener);
  return () => messageListeners.delete(listener);
}

function tell(message: SessionMessage): void {
  for (const listener of messageListeners) listener(message);
}

/*
 * What the login page says about how the last session ended, until the next sign-in: only an
 * erased account, whose own pages are gone when the member lands there.
 */
let farewell: MessageCode | null = null;
const farewellListeners = new Set<() => void>();

function setFarewell(next: MessageCode | null): void {
  if (farewell === next) return;
  farewell = next;
  for (const listener of farewellListeners) listener();
}

function subscribeFarewell(listener: () => void): () => void {
  farewellListeners.add(listener);
  return () => farewellListeners.delete(listener);
}

/** The code of the message the login page shows about the session that ended, or null. */
export function useFarewell(): MessageCode | null {
  return useSyncExternalStore(
    subscribeFarewell,
    () => farewell,
    () => null,
  );
}

/** The signed-in user; only for components below the sign-in guard. */
export function useUser(): Profile {
  const session = useSession();
  if (session.status !== 'signedIn') throw new Error('useUser outside a signed-in route');
  return session.user;
}

// ── Device storage ────────────────────────────────────────────────────────────────────────────────

function isProfile(value: unknown): value is Profile {
  if (!value || typeof value !== 'object') return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.id === 'string' &&
    typeof p.username === 'string' &&
    (p.scope === 'admin' || p.scope === 'user') &&
    LANGUAGES.includes(p.language as Language) &&
    typeof p.must_change_password === 'boolean'
  );
}

function readCachedProfile(): Profile | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(PROFILE_STORAGE_KEY) ?? 'null');
    return isProfile(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The service worker has no localStorage: its background sync reads a copy of the token from the
 * device store (docs/architecture.md, Background sync), written at sign-in and on every new token,
 * removed at sign-out and when the server ends the session.
 */
function copyTokenForWorker(token: string | null): void {
  const written = token ? writeDeviceValue(WORKER_SESSION_KEY, { token }) : deleteDeviceValue(WORKER_SESSION_KEY);
  void written.catch(() => undefined); // no IndexedDB: no background sync either
}

function store(token: string, user: Profile): void {
  copyTokenForWorker(token);
  try {
    localStorage.setItem(TOKEN_STORAGE_KEY, token);
    localStorage.setItem(PROFILE_STORAGE_KEY, JSON.stringify(user));
  } catch {
    // storage full or blocked: the session lasts for this page
  }
}

function dropStored(): void {
  copyTokenForWorker(null);
  try {
    localStorage.removeItem(TOKEN_STORAGE_KEY);
    localStorage.removeItem(PROFILE_STORAGE_KEY);
  } catch {
    // nothing stored
  }
}

// ── The data layer (RxDB), loaded lazily so the login page stays small ───────────────────────────

type DataLayer = typeof DataModule;
let dataLayer: Promise<DataLayer> | null = null;

function loadData(): Promise<DataLayer> {
  dataLayer ??= import('../data/index.js').then((data) => {
    data.onUnauthorized(() => void verifySession());
    data.onNotice((notice) => tell({ kind: 'notice', notice }));
    // A change waits on the device: ask the browser to keep its storage (once per device).
    data.onChangeQueued(() => void askPersistentStorage());
    return data;
  });
  dataLayer.catch(() => {
    dataLayer = null; // e.g. a chunk that failed to load: try again next time
  });
  return dataLayer;
}

/**
 * Loads the data layer and opens the device database while the server checks the password (a
 * first sign-in's pulls then start as soon as the token is there); a sign-in of another member than
 * the one whose changes are parked still drops them (`signIn`).
 */
export function preloadData(): void {
  prepareDevice();
}

/** Replication runs whenever a user is signed in and allowed to use the app (not before a forced password change). */
let syncKey: string | null = null;
let syncQueue: Promise<void> = Promise.resolve();

function queue(task: () => Promise<void>): Promise<void> {
  syncQueue = syncQueue.then(task).catch((error: unknown) => console.error('Sync control failed', error));
  return syncQueue;
}

function scheduleSync(restart = false): void {
  const wanted = state.status === 'signedIn' && !state.user.must_change_password ? state : null;
  const key = wanted ? `${wanted.token}|${wanted.user.id}|${wanted.user.scope}` : null;
  if (key === syncKey && !restart) return;
  const wasRunning = syncKey !== null;
  syncKey = key;
  if (!wanted && !wasRunning) return;
  void queue(async () => {
    const data = await loadData();
    if (wasRunning) await data.stopSync();
    if (wanted) await data.startSync({ token: wanted.token, userId: wanted.user.id, isAdmin: wanted.user.scope === 'admin' });
  });
}

// ── Transitions ──────────────────────────────────────────────────────────────────────────────────

/** After login, registration with an immediate token, or a password change (the old token is void). */
export function signIn(answer: SignedIn): void {
  setFarewell(null);
  unparkFor(answer.user.id);
  store(answer.token, answer.user);
  setState({ status: 'signedIn', token: answer.token, user: answer.user });
}

/**
 * Logout: the server ends this device's session (when it can be reached), token and profile are
 * dropped, and the local database is removed — unless it holds changes the server has not had yet:
 * then it stays, parked for this member, and they are sent after the member's next sign-in here.
 */
export async function signOut(): Promise<void> {
  const token = readToken();
  if (token) void logout(token).catch(() => undefined); // offline: the session ends after 90 days unused, or from another device
  forgetPush();
  await endSession(null);
}

/** The browser's push subscription goes with the session (the server drops its copy with it). */
function forgetPush(): void {
  void import('../pwa/push.js').then((push) => push.forgetPushOnSignOut()).catch(() => undefined);
}

/**
 * After the member erased their own account (docs/architecture.md, Erasure and retention): the
 * server has ended its sessions already, so there is nobody to sign out there. Everything on the
 * device goes, changes not sent yet too (no sign-in could ever send them), and the login page says
 * that the account was erased.
 */
export async function signOutErased(userId: string): Promise<void> {
  forgetPush();
  setFarewell('accountErased');
  dropSession();
  await queue(async () => {
    await (await loadData()).clearLocalData();
    if (readParkedChanges()?.userId === userId) takeParkedChanges();
  });
}

/** Token, profile and replication go; the guards send every page to /login. */
function dropSession(): void {
  dropStored();
  syncKey = null;
  setState(ANONYMOUS);
}

async function endSession(reason: MessageCode | null): Promise<void> {
  const wasSignedIn = state.status !== 'anonymous';
  const user = state.status === 'signedIn' ? state.user : null;
  dropSession();
  if (reason && wasSignedIn) tell({ kind: 'ended', reason });
  await queue(async () => {
    const data = await loadData();
    const waiting = data.waitingChanges();
    if (user && waiting > 0) {
      await data.parkLocalData();
      park({ userId: user.id, username: user.username, count: waiting });
      tell({ kind: 'changesKept', count: waiting });
    } else {
      await data.clearLocalData();
    }
  });
}

/**
 * At sign-in: the same member's parked changes are sent by the replication that starts now; another
 * member's sign-in discards them (the login page said so), so nobody's data is shown to someone else.
 */
function unparkFor(userId: string): void {
  const parked = takeParkedChanges();
  if (parked && parked.userId !== userId) void queue(async () => (await loadData()).clearLocalData());
}

/** Replaces the signed-in user and its cached copy (e.g. the profile's language, as the server answered it). */
export function updateUser(user: Profile): void {
  if (state.status !== 'signedIn' && state.status !== 'loading') return;
  const token = readToken();
  if (!token) return;
  store(token, user);
  setState({ status: 'signedIn', token, user });
}

let refreshing: Promise<void> | null = null;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = 2_000;

/** Loads the profile of the stored token; a network failure keeps the session as it is. */
function refreshProfile(): Promise<void> {
  refreshing ??= (async () => {
    const token = readToken();
    if (!token) return;
    try {
      const { user } = await fetchProfile(token);
      if (readToken() !== token) return; // signed out or in again meanwhile
      retryDelay = 2_000;
      updateUser(user);
    } catch (error) {
      if (isApiError(error) && error.unauthorized) {
        if (readToken() === token) await endSession('sessionExpired');
        return;
      }
      // Offline or a server hiccup: keep the cached profile; without one, keep trying.
      if (state.status === 'loading') {
        setState({ status: 'loading', offline: true });
        clearTimeout(retryTimer);
        retryTimer = setTimeout(() => void refreshProfile(), retryDelay);
        retryDelay = Math.min(retryDelay * 2, 30_000);
      }
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let lastRestart = 0;

/** The data layer's sync got a 401: ask the server whether the current token is still good. */
async function verifySession(): Promise<void> {
  if (!readToken()) return;
  await refreshProfile();
  if (state.status === 'signedIn' && !state.user.must_change_password && Date.now() - lastRestart > 10_000) {
    // The token is fine (the refusal was for an older one, e.g. just after a password change): restart
    // replication with the current token, at most every 10 s.
    lastRestart = Date.now();
    scheduleSync(true);
  }
}

/** Loads the data layer and opens the device database ahead of need. */
function prepareDevice(): void {
  void loadData()
    .then((data) => data.openDeviceDatabase())
    .catch(() => undefined);
}

/**
 * A returning member's device: load the data layer and open the device database at once, before
 * i18n and the first render, so a warm (offline) start shows the events as early as it can.
 */
export function prewarmDevice(): boolean {
  if (!readToken() || !readCachedProfile()) return false;
  prepareDevice();
  return true;
}

let started = false;

/** Reads the device's session and wires the listeners; call once before the first render. */
export function startSession(): void {
  if (started) return;
  started = true;
  const token = readToken();
  // The worker's copy follows the token this device holds (also one stored before the copy existed).
  copyTokenForWorker(token);
  if (token) {
    const cached = readCachedProfile();
    setState(cached ? { status: 'signedIn', token, user: cached } : { status: 'loading', offline: false });
    void refreshProfile();
  }

  onApiUnauthorized((_error, token) => {
    if (token === readToken()) void endSession('sessionExpired');
  });
  onApiMustChangePassword(() => {
    if (state.status === 'signedIn' && !state.user.must_change_password)
      updateUser({ ...state.user, must_change_password: true });
  });
  window.addEventListener('online', () => {
    if (readToken()) void refreshProfile();
  });
  // Another tab signed out or in.
  window.addEventListener('storage', (event) => {
    if (event.key !== TOKEN_STORAGE_KEY && event.key !== null) return;
    const next = readToken();
    if (!next) {
      if (state.status !== 'anonymous') setState(ANONYMOUS);
    } else if (state.status !== 'signedIn' || state.token !== next) {
      const cached = readCachedProfile();
      setState(cached ? { status: 'signedIn', token: next, user: cached } : { status: 'loading', offline: false });
      void refreshProfile();
    }
  });
}

export { readParkedChanges, useParkedChanges, type ParkedChanges } from './parkedChanges.js';
