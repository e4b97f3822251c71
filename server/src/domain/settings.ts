import {
  DEFAULT_GUEST_LIMIT,
  DEFAULT_SITE_TITLE,
  DEFAULT_TEAM_ID,
  DEFAULT_TEAM_NAME,
  DEFAULT_THEME_COLOR,
} from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface SiteConfig {
  team_id: number;
  team_name: string;
  site_title: string;
  theme_color: string;
  logo_filename: string | null;
}

const DEFAULTS: SiteConfig = {
  team_id: DEFAULT_TEAM_ID,
  team_name: DEFAULT_TEAM_NAME,
  site_title: DEFAULT_SITE_TITLE,
  theme_color: DEFAULT_THEME_COLOR,
  logo_filename: null,
};

/** The team and site configuration: stored settings over the defaults of SPEC 9. Public (the login page shows the title). */
export async function getSiteConfig(db: Kysely<Database>): Promise<SiteConfig> {
  const rows = await db.selectFrom('settings').selectAll().execute();
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
  return {
    team_id: stored.team_id ? Number(stored.team_id) : DEFAULTS.team_id,
    team_name: stored.team_name ?? DEFAULTS.team_name,
    site_title: stored.site_title ?? DEFAULTS.site_title,
    theme_color: stored.theme_color ?? DEFAULTS.theme_color,
    logo_filename: stored.logo_filename || null,
  };
}

/**
 * Guests one member may bring to one event: the club setting `guest_limit`, DEFAULT_GUEST_LIMIT
 * when unset. Keeps one member's pushes from bloating an event for everyone.
 */
export async function getGuestLimit(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'guest_limit').executeTakeFirst();
  const limit = Number(row?.value);
  return Number.isInteger(limit) && limit >= 0 ? limit : DEFAULT_GUEST_LIMIT;
}
