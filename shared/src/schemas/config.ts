import { z } from 'zod';
import { msg } from './common.js';

/**
 * PUT /api/config (admin): the team configuration plus the daily match import switch, the club's
 * bank account and the loyalty seasons.
 * The shapes only; the rules (rules/siteConfig.ts) are the domain's, so bad values answer their own
 * message code. `team_id` may come as the text of a form field ('553').
 */
export const siteConfigInput = z.object({
  team_id: z.union([z.number(), z.string().max(20)], msg('teamIdInvalid')),
  team_name: z.string(msg('teamNameRequired')).max(1000, msg('teamNameTooLong')),
  site_title: z.string(msg('siteTitleRequired')).max(1000, msg('siteTitleTooLong')),
  theme_color: z.string(msg('themeColorInvalid')).max(20, msg('themeColorInvalid')),
  /** The daily automatic match import; unchanged when left out. */
  auto_import_matches: z.boolean(msg('invalidInput')).optional(),
  /** The club's account (rules/siteConfig.ts checkClubAccount): each unchanged when left out, cleared when '' or null. */
  account_holder: z.string(msg('invalidInput')).max(1000, msg('accountHolderTooLong')).nullable().optional(),
  iban: z.string(msg('ibanInvalid')).max(100, msg('ibanInvalid')).nullable().optional(),
  bic: z.string(msg('bicInvalid')).max(100, msg('bicInvalid')).nullable().optional(),
  /** Seasons whose away matches count for loyalty points (1 to 10); null or '' sets the default again. */
  loyalty_seasons: z
    .union([z.number(), z.string().max(20)], msg('loyaltySeasonsInvalid'))
    .nullable()
    .optional(),
  /** Days before an event when members without an answer are reminded (0 off, to 14); unchanged when left out. */
  reminder_days_before: z.union([z.number(), z.string().max(20)], msg('reminderDaysInvalid')).optional(),
  /** Hours before an answer deadline when members without an answer are reminded (0 off, to 168); unchanged when left out. */
  deadline_reminder_hours: z.union([z.number(), z.string().max(20)], msg('deadlineReminderHoursInvalid')).optional(),
  /** Days a member owes before a reminder to pay, and between reminders (0 off, to 90); unchanged when left out. */
  payment_reminder_days: z.union([z.number(), z.string().max(20)], msg('paymentReminderDaysInvalid')).optional(),
  /** Years an erased member's bookings and tickets are kept after the end of their year (8 to 30); unchanged when left out. */
  retention_years: z.union([z.number(), z.string().max(20)], msg('retentionYearsInvalid')).optional(),
  /**
   * The imprint and the privacy notice, plain text (rules/siteConfig.ts checkLegalText: at most 20,000
   * characters); each unchanged when left out, cleared when '' or null.
   */
  imprint: z.string(msg('invalidInput')).max(100_000, msg('imprintTooLong')).nullable().optional(),
  privacy_notice: z.string(msg('invalidInput')).max(100_000, msg('privacyNoticeTooLong')).nullable().optional(),
});
export type SiteConfigInput = z.infer<typeof siteConfigInput>;
