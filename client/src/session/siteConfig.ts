import { isHexColour, readableOn, shade, textColourOn } from '@fankurve/shared/rules/colour';
import {
  checkAccountHolder,
  checkLegalText,
  checkLoyaltySeasons,
  SITE_CONFIG_DEFAULTS,
  type LegalTextField,
} from '@fankurve/shared/rules/siteConfig';
import { useSyncExternalStore } from 'react';
import { fetchSiteConfig, type SiteConfig } from '../api/config.js';
import { getSession, subscribeSession } from './session.js';

/*
 * The club's configuration (GET /api/config) as every screen shows it: cached on the device so the
 * title, colour and logo show offline too, and applied to the whole document at once — the CSS
 * variables of the theme (with the text colour that reads on it), <meta name="theme-color">, the
 * document title and the icons iOS installs the app with. A change reaches every open device:
 * the server's change stream names 'config' (followServerConfigChanges), the other tabs of a
 * device learn it from the cache (the storage event), and a device coming online asks again.
 * The club's bank account (for the GiroCode, drawn offline) comes only to signed-in devices: it is
 * asked for again at sign-in and taken out of the cached copy at sign-out. The imprint and the privacy
 * notice are everyone's and stay, so /impressum and /datenschutz show offline once loaded.
 */
export const SITE_CONFIG_STORAGE_KEY = 'siteConfig';

/** The page background (--bg): links, tabs and ghost buttons in the theme colour must read on it. */
const PAGE_BACKGROUND = '#F3F5F9';

const DEFAULTS: SiteConfig = {
  team_id: SITE_CONFIG_DEFAULTS.team_id,
  team_name: SITE_CONFIG_DEFAULTS.team_name,
  site_title: SITE_CONFIG_DEFAULTS.site_title,
  theme_color: SITE_CONFIG_DEFAULTS.theme_color,
  logo_filename: SITE_CONFIG_DEFAULTS.logo_filename,
  time_zone: SITE_CONFIG_DEFAULTS.time_zone,
  account_holder: SITE_CONFIG_DEFAULTS.account_holder,
  iban: SITE_CONFIG_DEFAULTS.iban,
  bic: SITE_CONFIG_DEFAULTS.bic,
  loyalty_seasons: SITE_CONFIG_DEFAULTS.loyalty_seasons,
  imprint: SITE_CONFIG_DEFAULTS.imprint,
  privacy_notice: SITE_CONFIG_DEFAULTS.privacy_notice,
};

/** An IBAN in electronic format and a BIC, by their shape: the server checked them fully (rules/iban.ts, not loaded by the shell). */
const IBAN_SHAPE = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;
const BIC_SHAPE = /^[A-Z0-9]{8}(?:[A-Z0-9]{3})?$/;

/** The club's account from the cache: a holder and an IBAN of the right shape, or none at all. */
function sanitizeAccount(raw: Record<string, unknown>): Pick<SiteConfig, 'account_holder' | 'iban' | 'bic'> {
  const holder = checkAccountHolder(raw.account_holder);
  const iban = typeof raw.iban === 'string' && IBAN_SHAPE.test(raw.iban) ? raw.iban : null;
  if (!holder.ok || !holder.value || !iban) return { account_holder: null, iban: null, bic: null };
  const bic = typeof raw.bic === 'string' && BIC_SHAPE.test(raw.bic) ? raw.bic : null;
  return { account_holder: holder.value, iban, bic };
}
const UPLOAD_NAME = /^[a-zA-Z0-9_-]{8,80}\.(?:jpg|jpeg|png|gif|webp)$/;

function sanitize(value: unknown): SiteConfig {
  if (!value || typeof value !== 'object') return DEFAULTS;
  const raw = value as Record<string, unknown>;
  const text = (field: unknown, fallback: string) => (typeof field === 'string' && field.trim() ? field : fallback);
  return {
    team_id: typeof raw.team_id === 'number' && Number.isInteger(raw.team_id) && raw.team_id > 0 ? raw.team_id : DEFAULTS.team_id,
    team_name: text(raw.team_name, DEFAULTS.team_name),
    site_title: text(raw.site_title, DEFAULTS.site_title),
    theme_color: isHexColour(raw.theme_color) ? raw.theme_color : DEFAULTS.theme_color,
    logo_filename: typeof raw.logo_filename === 'string' && UPLOAD_NAME.test(raw.logo_filename) ? raw.logo_filename : null,
    time_zone: typeof raw.time_zone === 'string' && isTimeZone(raw.time_zone) ? raw.time_zone : DEFAULTS.time_zone,
    ...sanitizeAccount(raw),
    loyalty_seasons: loyaltySeasonsOf(raw.loyalty_seasons),
    imprint: legalTextOf('imprint', raw.imprint),
    privacy_notice: legalTextOf('privacy_notice', raw.privacy_notice),
  };
}

/** The imprint or privacy notice from the cache, as the server's rule allows it; null otherwise (the pages say it is not written). */
function legalTextOf(field: LegalTextField, value: unknown): string | null {
  const checked = checkLegalText(field, value);
  return checked.ok ? checked.value : null;
}

function loyaltySeasonsOf(value: unknown): number {
  const checked = checkLoyaltySeasons(value);
  return checked.ok ? checked.value : DEFAULTS.loyalty_seasons;
}

/**
 * The time zone this browser (its user agent, version included) already accepted when it cached the
 * configuration. Checking a zone is the page's first `Intl` call, which waits for the browser's date
 * data (docs/architecture.md, Loading); a start that finds the zone known skips it, so the data is
 * first needed when a date is shown, by when the warm-up worker has loaded it.
 */
let knownZone: string | null = null;
const zoneCheck = (zone: string) => `${zone} in ${navigator.userAgent}`;

function isTimeZone(name: string): boolean {
  if (name === knownZone) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function readCached(): SiteConfig {
  try {
    const cached = JSON.parse(localStorage.getItem(SITE_CONFIG_STORAGE_KEY) ?? 'null') as Record<string, unknown> | null;
    if (cached && typeof cached.time_zone === 'string' && cached.zone_checked === zoneCheck(cached.time_zone))
      knownZone = cached.time_zone;
    return sanitize(cached);
  } catch {
    return DEFAULTS;
  }
}

let config: SiteConfig = DEFAULTS;
const listeners = new Set<() => void>();

/** The theme's CSS variables: the colour, a darker one for hover, and the text that reads on each. */
export function themeVariables(colour: string): Record<string, string> {
  const dark = shade(colour, 0.25);
  return {
    '--theme': colour,
    '--theme-dark': dark,
    '--on-theme': textColourOn(colour),
    '--on-theme-dark': textColourOn(dark),
    '--theme-text': readableOn(colour, PAGE_BACKGROUND),
  };
}

/** The icons of index.html (favicon, apple-touch-icon) as built, to return to when the logo goes. */
const builtIcons = new Map<Element, string>();

function applyIcons(logo: string | null): void {
  for (const link of document.querySelectorAll('link[rel="icon"], link[rel="apple-touch-icon"]')) {
    if (!builtIcons.has(link)) builtIcons.set(link, link.getAttribute('href') ?? '');
    link.setAttribute('href', logo ? `/uploads/${logo}` : builtIcons.get(link)!);
  }
}

function apply(next: SiteConfig): void {
  const changed = JSON.stringify(next) !== JSON.stringify(config);
  config = next;
  const root = document.documentElement;
  for (const [name, value] of Object.entries(themeVariables(next.theme_color))) root.style.setProperty(name, value);
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', next.theme_color);
  document.title = next.site_title;
  applyIcons(next.logo_filename);
  if (changed) for (const listener of listeners) listener();
}

function store(next: SiteConfig): void {
  try {
    // With the text colour for the theme, so public/shell.js paints the bar before the app runs, and
    // the zone as this browser checked it (sanitize did, just before).
    localStorage.setItem(
      SITE_CONFIG_STORAGE_KEY,
      JSON.stringify({ ...next, on_theme: textColourOn(next.theme_color), zone_checked: zoneCheck(next.time_zone) }),
    );
  } catch {
    // storage blocked
  }
}

/** Applies and caches a configuration the server answered (the admin's form after saving). */
export function applySiteConfig(value: unknown): void {
  const next = sanitize(value);
  store(next);
  apply(next);
}

/** A tab that comes back after this long asks for the configuration again. */
const VISIBLE_REFRESH_MS = 60_000;
let lastRefresh = 0;

/** Applies the cached configuration at once and refreshes it from the server in the background. */
export function startSiteConfig(): void {
  apply(readCached());
  void refreshSiteConfig();
  // Another tab of this device refreshed it (only one tab holds the change stream).
  window.addEventListener('storage', (event) => {
    if (event.key === SITE_CONFIG_STORAGE_KEY) apply(readCached());
  });
  // Back online, or back in the app after a while: whatever changed meanwhile (a stream that
  // reconnected on its own does not say what it missed).
  window.addEventListener('online', () => void refreshSiteConfig());
  followSession();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastRefresh > VISIBLE_REFRESH_MS) void refreshSiteConfig();
  });
}

/**
 * Signing in asks again, so the cached copy has the club's account (for the GiroCode offline);
 * signing out takes the account out of the cached copy at once (a shared device keeps nothing of
 * the club's members-only data) and asks again as nobody.
 */
function followSession(): void {
  let signedInAs: string | null = null;
  const check = () => {
    const session = getSession();
    const userId = session.status === 'signedIn' ? session.user.id : null;
    if (userId === signedInAs) return;
    const signedOut = signedInAs !== null && userId === null;
    signedInAs = userId;
    if (signedOut) applySiteConfig({ ...config, account_holder: null, iban: null, bic: null });
    void refreshSiteConfig();
  };
  subscribeSession(check);
  signedInAs = getSession().status === 'signedIn' ? (getSession() as { user: { id: string } }).user.id : null;
}

let refreshing: Promise<void> | null = null;
let again = false;

/** GET /api/config and apply it; one request at a time (a second call during one asks once more after it). */
export function refreshSiteConfig(): Promise<void> {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  lastRefresh = Date.now();
  refreshing = (async () => {
    try {
      const answer = await fetchSiteConfig();
      applySiteConfig(answer.config);
    } catch (error) {
      // Offline: the cached configuration stays.
      console.info('Site configuration not refreshed', error);
    } finally {
      refreshing = null;
      if (again) {
        again = false;
        void refreshSiteConfig();
      }
    }
  })();
  return refreshing;
}

/**
 * Re-reads the configuration whenever the server's change stream names 'config' (an admin saved it
 * on any device). For the signed-in layout; the data layer is imported lazily, so the shell does not
 * pull RxDB in. Returns the unsubscribe.
 */
export function followServerConfigChanges(): () => void {
  let stopped = false;
  let stop: (() => void) | null = null;
  void import('../data/index.js').then((data) => {
    if (stopped) return;
    stop = data.onServerChange((collections) => {
      if (collections.includes('config')) void refreshSiteConfig();
    });
  });
  return () => {
    stopped = true;
    stop?.();
  };
}

export function useSiteConfig(): SiteConfig {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => config,
    () => config,
  );
}
