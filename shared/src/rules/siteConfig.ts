import {
  DEADLINE_REMINDER_HOURS_MAX,
  DEFAULT_DEADLINE_REMINDER_HOURS,
  DEFAULT_LOYALTY_SEASONS,
  DEFAULT_REMINDER_DAYS_BEFORE,
  DEFAULT_SITE_TITLE,
  DEFAULT_TEAM_ID,
  DEFAULT_TEAM_NAME,
  DEFAULT_THEME_COLOR,
  DEFAULT_TIME_ZONE,
  REMINDER_DAYS_BEFORE_MAX,
  DEFAULT_PAYMENT_REMINDER_DAYS,
  DEFAULT_RETENTION_YEARS,
  PAYMENT_REMINDER_DAYS_MAX,
} from '../constants.js';
import type { CoreMessageCode } from '../messages.js';
import { isHexColour } from './colour.js';
import { freeTextProblem, normaliseLineBreaks } from './freeText.js';
import type { RuleResult } from './result.js';

/*
 * The team configuration (docs/product.md, Data and Input rules): the server's domain and the admin's form
 * check it with these rules, so both refuse the same input with the same message code.
 */

/** The longest site title: it is the nav bar's title, the document title and the installed app's name. */
export const SITE_TITLE_MAX_LENGTH = 60;
export const TEAM_NAME_MAX_LENGTH = 100;
/** Team ids of the match service are positive whole numbers; this keeps them in a 32-bit column anywhere. */
export const TEAM_ID_MAX = 2_147_483_647;

/**
 * The configuration of a club that set nothing (docs/product.md, Limits and constants): the server
 * answers these for unset settings, and the device falls back to them when its cached copy lacks
 * or garbles a field. One list for both sides.
 */
export const SITE_CONFIG_DEFAULTS = {
  team_id: DEFAULT_TEAM_ID,
  team_name: DEFAULT_TEAM_NAME,
  site_title: DEFAULT_SITE_TITLE,
  theme_color: DEFAULT_THEME_COLOR,
  logo_filename: null,
  time_zone: DEFAULT_TIME_ZONE,
  auto_import_matches: false,
  account_holder: null,
  iban: null,
  bic: null,
  loyalty_seasons: DEFAULT_LOYALTY_SEASONS,
  reminder_days_before: DEFAULT_REMINDER_DAYS_BEFORE,
  deadline_reminder_hours: DEFAULT_DEADLINE_REMINDER_HOURS,
  payment_reminder_days: DEFAULT_PAYMENT_REMINDER_DAYS,
  retention_years: DEFAULT_RETENTION_YEARS,
  imprint: null,
  privacy_notice: null,
} as const;

/** The fields an admin sets (the logo has its own upload). */
export interface TeamConfig {
  team_id: number;
  team_name: string;
  site_title: string;
  theme_color: string;
}
export type TeamConfigField = keyof TeamConfig;
export const TEAM_CONFIG_FIELDS: readonly TeamConfigField[] = ['team_id', 'team_name', 'site_title', 'theme_color'];

/** A positive whole number, as a number or as typed into a form ('553'). */
export function checkTeamId(value: unknown): RuleResult<number> {
  const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > TEAM_ID_MAX) {
    return { ok: false, code: 'teamIdInvalid' };
  }
  return { ok: true, value: number };
}

function checkText(value: unknown, max: number, required: CoreMessageCode, tooLong: CoreMessageCode): RuleResult<string> {
  const trimmed = typeof value === 'string' ? value.trim() : '';
  if (!trimmed) return { ok: false, code: required };
  if ([...trimmed].length > max) return { ok: false, code: tooLong };
  const problem = freeTextProblem(trimmed);
  if (problem) return { ok: false, code: problem };
  return { ok: true, value: trimmed };
}

export const checkTeamName = (value: unknown) => checkText(value, TEAM_NAME_MAX_LENGTH, 'teamNameRequired', 'teamNameTooLong');
export const checkSiteTitle = (value: unknown) =>
  checkText(value, SITE_TITLE_MAX_LENGTH, 'siteTitleRequired', 'siteTitleTooLong');

/** '#' followed by six hexadecimal digits; stored as typed. */
export function checkThemeColour(value: unknown): RuleResult<string> {
  return isHexColour(value) ? { ok: true, value } : { ok: false, code: 'themeColorInvalid' };
}

export type TeamConfigCheck =
  | { ok: true; value: TeamConfig }
  | { ok: false; problems: Partial<Record<TeamConfigField, CoreMessageCode>>; code: CoreMessageCode };

/** All four fields at once: the cleaned values, or each field's problem (and the first one's code). */
export function checkTeamConfig(input: Record<TeamConfigField, unknown>): TeamConfigCheck {
  const teamId = checkTeamId(input.team_id);
  const teamName = checkTeamName(input.team_name);
  const siteTitle = checkSiteTitle(input.site_title);
  const themeColour = checkThemeColour(input.theme_color);
  if (teamId.ok && teamName.ok && siteTitle.ok && themeColour.ok) {
    return {
      ok: true,
      value: { team_id: teamId.value, team_name: teamName.value, site_title: siteTitle.value, theme_color: themeColour.value },
    };
  }
  const problems: Partial<Record<TeamConfigField, CoreMessageCode>> = {};
  const results = { team_id: teamId, team_name: teamName, site_title: siteTitle, theme_color: themeColour };
  for (const field of TEAM_CONFIG_FIELDS) {
    const result = results[field];
    if (!result.ok) problems[field] = result.code;
  }
  const first = TEAM_CONFIG_FIELDS.map((field) => problems[field]).find((code) => code !== undefined)!;
  return { ok: false, problems, code: first };
}

/*
 * The club's bank account and the loyalty setting (docs/architecture.md, Club account and GiroCode).
 * The IBAN and BIC checks need the ibantools library and live in rules/iban.ts, so the app shell,
 * which reads this file's rules for the cached configuration, does not load it.
 */

/** The holder is the GiroCode's beneficiary name, which may have at most 70 characters. */
export const ACCOUNT_HOLDER_MAX_LENGTH = 70;
/** Loyalty points count the away matches of this many seasons at least and at most. */
export const LOYALTY_SEASONS_MIN = 1;
export const LOYALTY_SEASONS_MAX = 10;

/** Nothing typed: null, undefined or only spaces. */
export const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && !value.trim());

/** The account holder, trimmed; null when empty. */
export function checkAccountHolder(value: unknown): RuleResult<string | null> {
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string') return { ok: false, code: 'invalidInput' };
  const trimmed = value.trim();
  if ([...trimmed].length > ACCOUNT_HOLDER_MAX_LENGTH) return { ok: false, code: 'accountHolderTooLong' };
  const problem = freeTextProblem(trimmed);
  if (problem) return { ok: false, code: problem };
  return { ok: true, value: trimmed };
}

/** `DE89370400440532013000` → `DE89 3704 0044 0532 0130 00` (groups of four, as printed on cards and statements). */
export function formatIban(iban: string): string {
  return iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

export interface ClubAccountFields {
  account_holder: string | null;
  iban: string | null;
  bic: string | null;
}

/** The seasons loyalty points look back: a whole number 1 to 10, also as typed text ('3'). */
export function checkLoyaltySeasons(value: unknown): RuleResult<number> {
  const number = typeof value === 'string' && /^\s*\d{1,3}\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < LOYALTY_SEASONS_MIN || number > LOYALTY_SEASONS_MAX) {
    return { ok: false, code: 'loyaltySeasonsInvalid' };
  }
  return { ok: true, value: number };
}

/*
 * The answer reminders (docs/product.md, Answer deadlines and reminders): how long before an event,
 * and before its answer deadline, members who have not answered are reminded. 0 switches one off.
 */

/** A whole number from 0 to `max`, as a number or as typed text ('3'). */
function checkWholeNumber(value: unknown, max: number, code: CoreMessageCode): RuleResult<number> {
  const number = typeof value === 'string' && /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > max) return { ok: false, code };
  return { ok: true, value: number };
}

/** Days before the event: 0 (off) to 14. */
export const checkReminderDaysBefore = (value: unknown) =>
  checkWholeNumber(value, REMINDER_DAYS_BEFORE_MAX, 'reminderDaysInvalid');

/** Hours before the answer deadline: 0 (off) to 168 (a week). */
export const checkDeadlineReminderHours = (value: unknown) =>
  checkWholeNumber(value, DEADLINE_REMINDER_HOURS_MAX, 'deadlineReminderHoursInvalid');

/** Days a member owes before a reminder to pay, and between reminders: 0 (off) to 90. */
export const checkPaymentReminderDays = (value: unknown) =>
  checkWholeNumber(value, PAYMENT_REMINDER_DAYS_MAX, 'paymentReminderDaysInvalid');

/*
 * The imprint and the privacy notice (docs/architecture.md, Team configuration and theme): plain text
 * the admin writes, shown on /impressum and /datenschutz to everyone. Line breaks and tabs stay;
 * control and direction characters are refused like in any typed text.
 */

/** The longest imprint or privacy notice, in characters. */
export const LEGAL_TEXT_MAX_LENGTH = 20_000;

export type LegalTextField = 'imprint' | 'privacy_notice';
const LEGAL_TOO_LONG = { imprint: 'imprintTooLong', privacy_notice: 'privacyNoticeTooLong' } as const;

/** An imprint or privacy notice: trimmed, \r\n made \n, at most LEGAL_TEXT_MAX_LENGTH characters; null when blank (cleared). */
export function checkLegalText(field: LegalTextField, value: unknown): RuleResult<string | null> {
  if (isBlank(value)) return { ok: true, value: null };
  if (typeof value !== 'string') return { ok: false, code: 'invalidInput' };
  const text = normaliseLineBreaks(value).trim();
  if ([...text].length > LEGAL_TEXT_MAX_LENGTH) return { ok: false, code: LEGAL_TOO_LONG[field] };
  const problem = freeTextProblem(text, 'multiline');
  if (problem) return { ok: false, code: problem };
  return { ok: true, value: text };
}
