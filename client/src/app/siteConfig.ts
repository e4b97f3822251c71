import { DEFAULT_SITE_TITLE, DEFAULT_THEME_COLOR, DEFAULT_TIME_ZONE } from '@fankurve/shared/constants';
import { useSyncExternalStore } from 'react';
import { fetchSiteConfig, type SiteConfig } from '../api/config.js';

/** GET /api/config, cached on the device so the title, colour and logo show offline too. */
export const SITE_CONFIG_STORAGE_KEY = 'siteConfig';

const DEFAULTS: SiteConfig = {
  site_title: DEFAULT_SITE_TITLE,
  theme_color: DEFAULT_THEME_COLOR,
  logo_filename: null,
  time_zone: DEFAULT_TIME_ZONE,
};
const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

function sanitize(value: unknown): SiteConfig {
  if (!value || typeof value !== 'object') return DEFAULTS;
  const raw = value as Record<string, unknown>;
  return {
    site_title: typeof raw.site_title === 'string' && raw.site_title.trim() ? raw.site_title : DEFAULTS.site_title,
    theme_color: typeof raw.theme_color === 'string' && HEX_COLOUR.test(raw.theme_color) ? raw.theme_color : DEFAULTS.theme_color,
    logo_filename: typeof raw.logo_filename === 'string' && raw.logo_filename ? raw.logo_filename : null,
    time_zone: typeof raw.time_zone === 'string' && isTimeZone(raw.time_zone) ? raw.time_zone : DEFAULTS.time_zone,
  };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function readCached(): SiteConfig {
  try {
    return sanitize(JSON.parse(localStorage.getItem(SITE_CONFIG_STORAGE_KEY) ?? 'null'));
  } catch {
    return DEFAULTS;
  }
}

let config: SiteConfig = DEFAULTS;
const listeners = new Set<() => void>();

/** Mixes a hex colour with black (amount > 0) for hover and dark variants. */
export function shade(hex: string, amount: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  const channel = (shift: number) => Math.round(((value >> shift) & 0xff) * (1 - amount));
  return `#${[16, 8, 0].map((shift) => channel(shift).toString(16).padStart(2, '0')).join('')}`;
}

function apply(next: SiteConfig): void {
  config = next;
  const root = document.documentElement;
  root.style.setProperty('--theme', next.theme_color);
  root.style.setProperty('--theme-dark', shade(next.theme_color, 0.25));
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', next.theme_color);
  document.title = next.site_title;
  for (const listener of listeners) listener();
}

/** Applies the cached configuration at once and refreshes it from the server in the background. */
export function startSiteConfig(): void {
  apply(readCached());
  void refreshSiteConfig();
}

export async function refreshSiteConfig(): Promise<void> {
  try {
    const answer = await fetchSiteConfig();
    const next = sanitize(answer.config);
    try {
      localStorage.setItem(SITE_CONFIG_STORAGE_KEY, JSON.stringify(next));
    } catch {
      // storage blocked
    }
    apply(next);
  } catch (error) {
    // Offline: the cached configuration stays.
    console.info('Site configuration not refreshed', error);
  }
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
