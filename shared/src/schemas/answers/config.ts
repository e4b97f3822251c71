import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the team configuration routes (server/src/http/config.ts). */

/** The team configuration as every device shows it, with the club's time zone. */
export const siteConfigView = z
  .strictObject({
    team_id: z.number().int(),
    team_name: z.string(),
    site_title: z.string(),
    theme_color: z.string(),
    logo_filename: textOrNull,
    /** The daily automatic match import: in admins' answers only. */
    auto_import_matches: z.boolean().optional(),
    /** The club's time zone: its calendar day decides which events are past. */
    time_zone: z.string(),
    /** The club's bank account (the GiroCode): null when not set, and always null to an anonymous caller. */
    account_holder: textOrNull,
    /** Electronic format (no spaces). */
    iban: textOrNull,
    bic: textOrNull,
    /** Seasons whose away matches count for loyalty points. */
    loyalty_seasons: z.number().int(),
    /** Days before an event when members without an answer are reminded (0 = off): in admins' answers only. */
    reminder_days_before: z.number().int().optional(),
    /** Hours before an answer deadline when members without an answer are reminded (0 = off): in admins' answers only. */
    deadline_reminder_hours: z.number().int().optional(),
    /** Days a member owes before a reminder to pay, and between reminders (0 = off): in admins' answers only. */
    payment_reminder_days: z.number().int().optional(),
    /** Years an erased member's bookings and tickets are kept after the end of their year: in admins' answers only. */
    retention_years: z.number().int().optional(),
    /** The imprint and the privacy notice (plain text, shown on /impressum and /datenschutz): null until written; to everyone. */
    imprint: textOrNull,
    privacy_notice: textOrNull,
  })
  .meta({ id: 'SiteConfig' });
export type SiteConfigView = z.infer<typeof siteConfigView>;

/** GET /api/config (public; an admin's answer carries `auto_import_matches`). */
export const siteConfigAnswer = successAnswer({ config: siteConfigView });
export type SiteConfigAnswer = z.infer<typeof siteConfigAnswer>;

/** PUT /api/config and DELETE /api/config/logo (admin): the configuration afterwards. */
export const siteConfigSavedAnswer = messageAnswerWith({ config: siteConfigView });
export type SiteConfigSavedAnswer = z.infer<typeof siteConfigSavedAnswer>;

/** POST /api/config/logo (admin): the stored file's name, and the configuration. */
export const logoUploadedAnswer = messageAnswerWith({ filename: textOrNull, config: siteConfigView });
export type LogoUploadedAnswer = z.infer<typeof logoUploadedAnswer>;

/** An icon of the web app manifest. */
export const manifestIcon = z.strictObject({
  src: z.string(),
  sizes: z.string().optional(),
  type: z.string().optional(),
  purpose: z.enum(['any', 'maskable']),
});
export type ManifestIcon = z.infer<typeof manifestIcon>;

/** GET /api/manifest.webmanifest: the web app manifest built from the configuration (no `success`). */
export const webManifestAnswer = z
  .strictObject({
    id: z.string(),
    description: z.string(),
    lang: z.string(),
    background_color: z.string(),
    display: z.string(),
    start_url: z.string(),
    scope: z.string(),
    name: z.string(),
    short_name: z.string(),
    theme_color: z.string(),
    icons: z.array(manifestIcon),
  })
  .meta({ id: 'WebManifest' });
export type WebManifestAnswer = z.infer<typeof webManifestAnswer>;
