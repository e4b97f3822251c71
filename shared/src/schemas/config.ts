import { z } from 'zod';
import { msg } from './common.js';

/**
 * PUT /api/config (admin): the team configuration plus the daily match import switch.
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
});
export type SiteConfigInput = z.infer<typeof siteConfigInput>;
