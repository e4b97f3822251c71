import {
  DEFAULT_GUEST_LIMIT,
  DEFAULT_SITE_TITLE,
  DEFAULT_TEAM_ID,
  DEFAULT_TEAM_NAME,
  DEFAULT_THEME_COLOR,
} from '@fankurve/shared';
import { checkTeamConfig, type TeamConfig } from '@fankurve/shared/rules/siteConfig';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { WriteContext } from '../db/store.js';
import { requireAdmin, type Actor } from './actor.js';
import { badInput } from './errors.js';
import { imageSizeOf } from './imageSize.js';
import { checkImage, type UploadStore } from './uploads.js';

export interface SiteConfig {
  team_id: number;
  team_name: string;
  site_title: string;
  theme_color: string;
  logo_filename: string | null;
  /** The logo's pixel size (`WxH`, read from the file when it was uploaded), null when unknown. */
  logo_size: string | null;
  /** The daily automatic match import (server/src/matches/dailyImport.ts reads the setting). */
  auto_import_matches: boolean;
}

/** Settings keys: one row per field in `settings` (key, value). */
const KEYS = {
  team_id: 'team_id',
  team_name: 'team_name',
  site_title: 'site_title',
  theme_color: 'theme_color',
  logo_filename: 'logo_filename',
  logo_size: 'logo_size',
  /** '1' on, anything else off; the daily import reads this key itself. */
  auto_import_matches: 'auto_import_matches',
} as const;

const DEFAULTS: SiteConfig = {
  team_id: DEFAULT_TEAM_ID,
  team_name: DEFAULT_TEAM_NAME,
  site_title: DEFAULT_SITE_TITLE,
  theme_color: DEFAULT_THEME_COLOR,
  logo_filename: null,
  logo_size: null,
  auto_import_matches: false,
};

/** The team and site configuration: stored settings over the defaults of docs/product.md, Limits and constants. Public (the login page shows the title). */
export async function getSiteConfig(db: Kysely<Database>): Promise<SiteConfig> {
  const rows = await db.selectFrom('settings').selectAll().execute();
  const stored = Object.fromEntries(rows.map((row) => [row.key, row.value])) as Partial<Record<string, string>>;
  return {
    team_id: stored.team_id ? Number(stored.team_id) : DEFAULTS.team_id,
    team_name: stored.team_name ?? DEFAULTS.team_name,
    site_title: stored.site_title ?? DEFAULTS.site_title,
    theme_color: stored.theme_color ?? DEFAULTS.theme_color,
    logo_filename: stored.logo_filename || null,
    logo_size: stored.logo_filename ? stored.logo_size || null : null,
    auto_import_matches: stored.auto_import_matches === '1',
  };
}

async function setSetting(w: WriteContext, key: string, value: string): Promise<void> {
  await w.db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}

/**
 * Every device re-reads the configuration when the change stream names 'config': a configuration
 * write takes a seq under that name, so its commit carries it (docs/architecture.md, team
 * configuration and theme).
 */
async function announce(w: WriteContext): Promise<void> {
  await w.nextSeq('config');
}

export interface SiteConfigUpdate extends Record<keyof TeamConfig, unknown> {
  auto_import_matches?: boolean;
}

/**
 * Saves the team configuration (admin): team id a positive whole number, team name and site title
 * trimmed and not blank (at most TEAM_NAME_MAX_LENGTH and SITE_TITLE_MAX_LENGTH characters), theme
 * colour '#' and six hex digits (rules/siteConfig.ts); the daily import switch when it is given.
 */
export async function updateSiteConfig(w: WriteContext, actor: Actor, input: SiteConfigUpdate): Promise<SiteConfig> {
  requireAdmin(actor);
  const checked = checkTeamConfig(input);
  if (!checked.ok) throw badInput(checked.code);
  const { team_id, team_name, site_title, theme_color } = checked.value;
  await setSetting(w, KEYS.team_id, String(team_id));
  await setSetting(w, KEYS.team_name, team_name);
  await setSetting(w, KEYS.site_title, site_title);
  await setSetting(w, KEYS.theme_color, theme_color);
  if (input.auto_import_matches !== undefined) {
    if (typeof input.auto_import_matches !== 'boolean') throw badInput('invalidInput');
    await setSetting(w, KEYS.auto_import_matches, input.auto_import_matches ? '1' : '0');
  }
  await announce(w);
  return getSiteConfig(w.db);
}

/**
 * Sets the club's logo (admin): the file is checked (present, at most 5 MB, an image by content),
 * stored under a random name (removed again if the write rolls back) with its pixel size, and the
 * previous logo file is removed after the commit.
 */
export async function setLogo(w: WriteContext, uploads: UploadStore, actor: Actor, file: Uint8Array | null): Promise<SiteConfig> {
  requireAdmin(actor);
  const extension = checkImage(file);
  const size = imageSizeOf(file!, extension);
  const previous = (await getSiteConfig(w.db)).logo_filename;
  const saved = await uploads.save(file!, extension, 'logo');
  w.onRollback(() => uploads.remove(saved));
  await setSetting(w, KEYS.logo_filename, saved);
  await setSetting(w, KEYS.logo_size, size ? `${size.width}x${size.height}` : '');
  await announce(w);
  w.onCommit(() => uploads.remove(previous));
  return getSiteConfig(w.db);
}

/** Removes the club's logo (admin); without one nothing changes. The file goes after the commit. */
export async function deleteLogo(w: WriteContext, uploads: UploadStore, actor: Actor): Promise<SiteConfig> {
  requireAdmin(actor);
  const previous = (await getSiteConfig(w.db)).logo_filename;
  if (previous) {
    await w.db.deleteFrom('settings').where('key', 'in', [KEYS.logo_filename, KEYS.logo_size]).execute();
    await announce(w);
    w.onCommit(() => uploads.remove(previous));
  }
  return getSiteConfig(w.db);
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
