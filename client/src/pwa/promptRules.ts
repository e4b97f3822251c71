import { INSTALL_PROMPT_DELAY_MS, PUSH_PROMPT_DELAY_MS } from '@fankurve/shared/constants';

/**
 * The decisions behind the install section of the profile and the prompts after sign-in
 * (docs/architecture.md, Profile and prompts; the delays of docs/product.md, Limits and constants),
 * as pure functions: `pwa/install.ts` and `app/Prompts.tsx` gather the facts from the browser and act on the answers.
 */

/**
 * What this device can do about installing the app:
 * - `installed`: running as the installed app (display-mode standalone, iOS `navigator.standalone`),
 *   or installed from this page a moment ago;
 * - `available`: the browser offered its install prompt (a captured `beforeinstallprompt`);
 * - `ios`: Safari on iOS/iPadOS, which has no install prompt: Share → "Add to Home Screen";
 * - `unavailable`: none of these (the browser offers no install here, or not yet).
 */
export type InstallState = 'installed' | 'available' | 'ios' | 'unavailable';

export interface InstallFacts {
  standalone: boolean;
  /** The browser reported `appinstalled` during this page's life. */
  installedHere: boolean;
  /** A `beforeinstallprompt` event is kept, its prompt not yet used. */
  canPrompt: boolean;
  iosSafari: boolean;
}

export function installStateOf(facts: InstallFacts): InstallState {
  if (facts.standalone || facts.installedHere) return 'installed';
  if (facts.canPrompt) return 'available';
  if (facts.iosSafari) return 'ios';
  return 'unavailable';
}

/**
 * Safari on an iPhone, iPod or iPad. iPadOS Safari says "Macintosh" by default; a touch screen tells it
 * apart from a Mac. Other browsers on iOS (Chrome, Firefox, Edge, Opera, Google app) name themselves.
 */
export function isIosSafari(userAgent: string, maxTouchPoints = 0): boolean {
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  if (!ios) return false;
  return /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|OPT\/|GSA\/|YaBrowser|DuckDuckGo/.test(userAgent);
}

export type PromptKind = 'install' | 'push';

export interface PromptFacts {
  signedIn: boolean;
  /** A user who must change the password first sees no prompt (they reach nothing else). */
  mustChangePassword: boolean;
  install: InstallState;
  /** The install prompt was shown on this device before (any user, any earlier visit). */
  installShownOnDevice: boolean;
  /** The layout was given a push prompt to show (the web-push feature decides what it shows). */
  hasPushPrompt: boolean;
  /** The push prompt had its turn during this visit. */
  pushTurnTaken: boolean;
  /** The prompt on screen now, if any. */
  open: PromptKind | null;
}

export interface NextPrompt {
  kind: PromptKind;
  /** How long to wait, counted from the moment this became the next prompt. */
  delayMs: number;
}

/**
 * The next prompt and its delay, or null: nothing to show (now).
 * - Never on top of another prompt, never while signed out or before a forced password change.
 * - The install prompt: when the browser offers installation and the app is not installed
 *   (standalone counts as installed) and it was never shown on this device; INSTALL_PROMPT_DELAY_MS
 *   (1 s) after sign-in, or after the browser's offer arrives if that comes later.
 * - The push prompt follows, once per visit: PUSH_PROMPT_DELAY_MS (3 s) after the install prompt was
 *   closed, or 3 s after sign-in when there is no install prompt to show.
 * - An offer to install that arrives after the push prompt's turn is still shown (once), after it.
 */
export function nextPrompt(facts: PromptFacts): NextPrompt | null {
  if (!facts.signedIn || facts.mustChangePassword || facts.open !== null) return null;
  if (shouldOfferInstall(facts)) return { kind: 'install', delayMs: INSTALL_PROMPT_DELAY_MS };
  if (facts.hasPushPrompt && !facts.pushTurnTaken) return { kind: 'push', delayMs: PUSH_PROMPT_DELAY_MS };
  return null;
}

/** The install prompt's own condition: installable, not installed, not yet shown here. */
export function shouldOfferInstall(facts: Pick<PromptFacts, 'install' | 'installShownOnDevice'>): boolean {
  return facts.install === 'available' && !facts.installShownOnDevice;
}
