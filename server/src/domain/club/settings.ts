import { DEFAULT_GUEST_LIMIT } from '@fankurve/shared';
import { checkClubAccount } from '@fankurve/shared/rules/iban';
import { checkRetentionYears } from '@fankurve/shared/rules/erasure';
import {
  checkDeadlineReminderHours,
  checkLegalText,
  checkLoyaltySeasons,
  checkPaymentReminderDays,
  checkReminderDaysBefore,
  checkTeamConfig,
  SITE_CONFIG_DEFAULTS,
  type ClubAccountFields,
  type TeamConfig,
} from '@fankurve/shared/rules/siteConfig';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput } from '../errors.js';
import { imageSizeOf } from '../imageSize.js';
import { REMINDER_SETTING_KEYS, reminderSettingsOf, scheduleReminders } from '../events/reminders.js';
import { checkImage, type UploadStore } from '../uploads.js';
import { audit, changedFields } from './auditLog.js';
import { RETENTION_SETTING_KEY, retentionYearsOf, scheduleRetention } from '../people/retention.js';
import { PAYMENT_REMINDER_SETTING_KEY, paymentReminderDaysOf, schedulePaymentReminders } from '../money/paymentReminders.js';

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
  /** The club's bank account for members' transfers (the GiroCode); null when not set. */
  account_holder: string | null;
  iban: string | null;
  bic: string | null;
  /** Seasons whose away matches count for loyalty points (domain/tickets/loyalty.ts reads the setting). */
  loyalty_seasons: number;
  /** Days before an event when members without an answer are reminded; 0 off (domain/events/reminders.ts). */
  reminder_days_before: number;
  /** Hours before an answer deadline when members without an answer are reminded; 0 off. */
  deadline_reminder_hours: number;
  /** Days a member owes before a reminder to pay, and between reminders; 0 off (domain/money/paymentReminders.ts). */
  payment_reminder_days: number;
  /** Years an erased member's bookings and tickets are kept after the end of their year (domain/people/retention.ts). */
  retention_years: number;
  /** The imprint and the privacy notice: plain text for /impressum and /datenschutz, public; null until written. */
  imprint: string | null;
  privacy_notice: string | null;
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
  account_holder: 'account_holder',
  /** Electronic format (no spaces, capitals). */
  iban: 'iban',
  bic: 'bic',
  loyalty_seasons: 'loyalty_seasons',
  reminder_days_before: REMINDER_SETTING_KEYS.daysBefore,
  deadline_reminder_hours: REMINDER_SETTING_KEYS.deadlineHours,
  payment_reminder_days: PAYMENT_REMINDER_SETTING_KEY,
  retention_years: RETENTION_SETTING_KEY,
  imprint: 'imprint',
  privacy_notice: 'privacy_notice',
} as const;

/** Unset settings answer the shared defaults (rules/siteConfig.ts); the logo's size is the server's own. */
const DEFAULTS: SiteConfig = { ...SITE_CONFIG_DEFAULTS, logo_size: null };

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
    account_holder: stored.account_holder || null,
    iban: stored.iban || null,
    bic: stored.bic || null,
    loyalty_seasons: stored.loyalty_seasons ? loyaltySeasonsOf(stored.loyalty_seasons) : DEFAULTS.loyalty_seasons,
    ...reminderTimesOf(stored),
    payment_reminder_days: paymentReminderDaysOf(stored[KEYS.payment_reminder_days]),
    retention_years: retentionYearsOf(stored[KEYS.retention_years]),
    imprint: stored[KEYS.imprint] || null,
    privacy_notice: stored[KEYS.privacy_notice] || null,
  };
}

/** The stored reminder times (docs/architecture.md, Answer deadlines and reminders), each its default when unset or unreadable. */
function reminderTimesOf(
  stored: Partial<Record<string, string>>,
): Pick<SiteConfig, 'reminder_days_before' | 'deadline_reminder_hours'> {
  const times = reminderSettingsOf({
    daysBefore: stored[KEYS.reminder_days_before],
    deadlineHours: stored[KEYS.deadline_reminder_hours],
  });
  return { reminder_days_before: times.daysBefore, deadline_reminder_hours: times.deadlineHours };
}

function loyaltySeasonsOf(value: string): number {
  const checked = checkLoyaltySeasons(value);
  return checked.ok ? checked.value : DEFAULTS.loyalty_seasons;
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
  /** Each left out: unchanged; '' or null: cleared (loyalty_seasons: back to the default). */
  account_holder?: string | null;
  iban?: string | null;
  bic?: string | null;
  loyalty_seasons?: number | string | null;
  /** Each left out: unchanged. */
  reminder_days_before?: number | string;
  deadline_reminder_hours?: number | string;
  payment_reminder_days?: number | string;
  retention_years?: number | string;
  /** Each left out: unchanged; '' or null: cleared. */
  imprint?: string | null;
  privacy_notice?: string | null;
}

/** Writes a setting, or removes its row when the value is null (the default applies again). */
async function setOrClear(w: WriteContext, key: string, value: string | null): Promise<void> {
  if (value === null) await w.db.deleteFrom('settings').where('key', '=', key).execute();
  else await setSetting(w, key, value);
}

/**
 * Saves the team configuration (admin): team id a positive whole number, team name and site title
 * trimmed and not blank (at most TEAM_NAME_MAX_LENGTH and SITE_TITLE_MAX_LENGTH characters), theme
 * colour '#' and six hex digits (rules/siteConfig.ts); the daily import switch when it is given; the
 * club's account (holder, IBAN by its check digits, BIC) and the loyalty seasons (1 to 10) when given;
 * the imprint and the privacy notice (plain text of at most 20,000 characters) when given.
 * Everything is checked before anything is written.
 */
export async function updateSiteConfig(w: WriteContext, actor: Actor, input: SiteConfigUpdate): Promise<SiteConfig> {
  requireAdmin(actor);
  const checked = checkTeamConfig(input);
  if (!checked.ok) throw badInput(checked.code);
  const { team_id, team_name, site_title, theme_color } = checked.value;
  const current = await getSiteConfig(w.db);
  // The account as it will be: fields left out keep their stored value, so a holder cleared while the IBAN stays is refused.
  const accountFields = ['account_holder', 'iban', 'bic'] as const;
  const account = checkClubAccount(
    Object.fromEntries(
      accountFields.map((field) => [field, input[field] === undefined ? current[field] : input[field]]),
    ) as Record<keyof ClubAccountFields, unknown>,
  );
  if (!account.ok) throw badInput(account.code);
  let loyaltySeasons: number | null | undefined = undefined;
  if (input.loyalty_seasons === null || input.loyalty_seasons === '') loyaltySeasons = null;
  else if (input.loyalty_seasons !== undefined) {
    const seasons = checkLoyaltySeasons(input.loyalty_seasons);
    if (!seasons.ok) throw badInput(seasons.code);
    loyaltySeasons = seasons.value;
  }
  if (input.auto_import_matches !== undefined && typeof input.auto_import_matches !== 'boolean') throw badInput('invalidInput');
  const reminderDays = input.reminder_days_before === undefined ? null : checkReminderDaysBefore(input.reminder_days_before);
  if (reminderDays && !reminderDays.ok) throw badInput(reminderDays.code);
  const deadlineHours =
    input.deadline_reminder_hours === undefined ? null : checkDeadlineReminderHours(input.deadline_reminder_hours);
  if (deadlineHours && !deadlineHours.ok) throw badInput(deadlineHours.code);
  const paymentDays = input.payment_reminder_days === undefined ? null : checkPaymentReminderDays(input.payment_reminder_days);
  if (paymentDays && !paymentDays.ok) throw badInput(paymentDays.code);
  const retentionYears = input.retention_years === undefined ? null : checkRetentionYears(input.retention_years);
  if (retentionYears && !retentionYears.ok) throw badInput(retentionYears.code);
  const legalFields = ['imprint', 'privacy_notice'] as const;
  const legalTexts = legalFields.map(
    (field) => [field, input[field] === undefined ? null : checkLegalText(field, input[field])] as const,
  );
  for (const [, checked] of legalTexts) if (checked && !checked.ok) throw badInput(checked.code);
  await setSetting(w, KEYS.team_id, String(team_id));
  await setSetting(w, KEYS.team_name, team_name);
  await setSetting(w, KEYS.site_title, site_title);
  await setSetting(w, KEYS.theme_color, theme_color);
  if (input.auto_import_matches !== undefined) {
    await setSetting(w, KEYS.auto_import_matches, input.auto_import_matches ? '1' : '0');
  }
  for (const field of accountFields) {
    if (input[field] !== undefined) await setOrClear(w, KEYS[field], account.value[field]);
  }
  if (loyaltySeasons !== undefined)
    await setOrClear(w, KEYS.loyalty_seasons, loyaltySeasons === null ? null : String(loyaltySeasons));
  const reminderTimes = [
    [KEYS.reminder_days_before, reminderDays, current.reminder_days_before],
    [KEYS.deadline_reminder_hours, deadlineHours, current.deadline_reminder_hours],
  ] as const;
  for (const [key, checked, before] of reminderTimes) {
    if (!checked?.ok || checked.value === before) continue;
    await setSetting(w, key, String(checked.value));
    // Other reminder times: the job works out its next due time again (docs/architecture.md, Answer deadlines and reminders).
    await scheduleReminders(w);
  }
  for (const [field, checked] of legalTexts) if (checked?.ok) await setOrClear(w, KEYS[field], checked.value);
  if (paymentDays?.ok && paymentDays.value !== current.payment_reminder_days) {
    await setSetting(w, KEYS.payment_reminder_days, String(paymentDays.value));
    await schedulePaymentReminders(w);
  }
  if (retentionYears?.ok && retentionYears.value !== current.retention_years) {
    await setSetting(w, KEYS.retention_years, String(retentionYears.value));
    await scheduleRetention(w);
  }
  const saved = await getSiteConfig(w.db);
  const changed = changedFields(current, saved);
  if (Object.keys(changed.after).length > 0) await audit(w, actor, { kind: 'settings', action: 'config.update', ...changed });
  await announce(w);
  return saved;
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
  await audit(w, actor, {
    kind: 'settings',
    action: 'config.logo',
    before: { logo_filename: previous },
    after: { logo_filename: saved },
  });
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
    await audit(w, actor, {
      kind: 'settings',
      action: 'config.logo',
      before: { logo_filename: previous },
      after: { logo_filename: null },
    });
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

/** The club's bank account for members' transfers (docs/architecture.md, Club account and GiroCode). */
export interface ClubAccount {
  holder: string;
  /** Electronic format: no spaces, capitals. */
  iban: string;
  bic: string | null;
}

/** The club's account from the settings account_holder, iban and bic; null while no IBAN (or holder) is set. */
export async function clubAccount(db: Kysely<Database>): Promise<ClubAccount | null> {
  const rows = await db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', ['account_holder', 'iban', 'bic'])
    .execute();
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  const holder = stored.get('account_holder') || null;
  const iban = stored.get('iban') || null;
  if (!holder || !iban) return null;
  return { holder, iban, bic: stored.get('bic') || null };
}
