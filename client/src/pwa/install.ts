import { useSyncExternalStore } from 'react';
import { installStateOf, isIosSafari, type InstallState } from './promptRules.js';
import { askPersistentStorage } from './storage.js';

/**
 * Installing the app (docs/architecture.md, Profile and prompts). Imported once at start-up (main.tsx), so the
 * browser's `beforeinstallprompt` is caught however early it comes (often while the login page is
 * open): its own mini-infobar is suppressed and the event kept, so the app's prompt dialog and the
 * profile's button can open the browser's install dialog later, from a click.
 */

/** Chromium's event (not in the DOM typings): `prompt()` works once, from a user gesture. */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice?: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

/** localStorage: set once the install prompt was shown on this device (never shown again). */
export const INSTALL_PROMPT_SHOWN_KEY = 'installPromptShown';

let deferred: BeforeInstallPromptEvent | null = null;
let installedHere = false;
let state: InstallState = 'unavailable';
const listeners = new Set<() => void>();

function standalone(): boolean {
  if (typeof window === 'undefined') return false;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || (typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches);
}

function refresh(): void {
  const next = installStateOf({
    standalone: standalone(),
    installedHere,
    canPrompt: deferred !== null,
    iosSafari: typeof navigator !== 'undefined' && isIosSafari(navigator.userAgent, navigator.maxTouchPoints),
  });
  if (next === state) return;
  state = next;
  // Installed (or running as the app): ask the browser to keep the app's storage (pwa/storage.ts).
  if (state === 'installed') void askPersistentStorage();
  for (const listener of listeners) listener();
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    refresh();
  });
  window.addEventListener('appinstalled', () => {
    installedHere = true;
    deferred = null;
    refresh();
  });
  if (typeof window.matchMedia === 'function')
    window.matchMedia('(display-mode: standalone)').addEventListener('change', refresh);
  refresh();
}

export const getInstallState = (): InstallState => state;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The device's install state, re-rendering when the browser offers installation or the app gets installed. */
export function useInstallState(): InstallState {
  return useSyncExternalStore(subscribe, getInstallState, getInstallState);
}

/**
 * Opens the browser's install dialog. Call it straight from a click (the browser requires a user
 * gesture); the kept event is used up whatever the member answers. Resolves with the member's answer,
 * or 'unavailable' when there was nothing to prompt.
 */
export function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return Promise.resolve('unavailable');
  deferred = null;
  let opened: Promise<unknown>;
  try {
    opened = Promise.resolve(event.prompt());
  } catch (error) {
    opened = Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  refresh();
  return opened
    .then(() => event.userChoice)
    .then((choice) => choice?.outcome ?? 'dismissed')
    .catch((error: unknown) => {
      console.warn('The install prompt failed', error);
      return 'dismissed' as const;
    });
}

export function wasInstallPromptShown(): boolean {
  try {
    return localStorage.getItem(INSTALL_PROMPT_SHOWN_KEY) !== null;
  } catch {
    return false;
  }
}

export function markInstallPromptShown(): void {
  try {
    localStorage.setItem(INSTALL_PROMPT_SHOWN_KEY, new Date().toISOString());
  } catch {
    // storage blocked: it is not shown again during this page's life (prompts.tsx keeps that)
  }
}
