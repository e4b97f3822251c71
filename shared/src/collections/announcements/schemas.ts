import { z } from 'zod';
import { lineText, msg, multilineText } from '../../schemas/common.js';
import { ANNOUNCEMENT_TEXT_MAX_LENGTH, ANNOUNCEMENT_TITLE_MAX_LENGTH } from './collection.js';

// Only a missing title says 'titleRequired'; one too long says which field (`invalidInput: title`).
const titleText = z.string({ error: (issue) => (issue.code === 'invalid_type' ? 'titleRequired' : undefined) });

/**
 * An announcement (docs/product.md, Input rules): title one line, text several lines, both required
 * free text (rules/freeText.ts); the event it is about, or none; pinned or not (default not).
 */
export const createAnnouncementInput = z.object({
  title: lineText(titleText.trim().min(1, msg('titleRequired')).max(ANNOUNCEMENT_TITLE_MAX_LENGTH)),
  text: multilineText(z.string().trim().min(1).max(ANNOUNCEMENT_TEXT_MAX_LENGTH)),
  event_id: z.string(msg('invalidInput')).min(1, msg('invalidInput')).max(64, msg('eventNotFound')).nullish(),
  pinned: z.boolean(msg('invalidInput')).optional(),
});
export type CreateAnnouncementInput = z.input<typeof createAnnouncementInput>;

/** PUT /api/announcements/{id}: any of the fields, each validated like on create (unknown fields are ignored). */
export const updateAnnouncementInput = createAnnouncementInput.partial();
export type UpdateAnnouncementInput = z.input<typeof updateAnnouncementInput>;
