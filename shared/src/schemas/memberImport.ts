import { z } from 'zod';
import { MEMBER_IMPORT_MAX_BYTES } from '../rules/memberImport.js';
import { msg } from './common.js';

/**
 * POST /api/users/import (docs/product.md, Users): the list as CSV text (header row first) and
 * whether to create its valid rows (`confirm: true`) or only preview it (false, the default). The
 * text is at most MEMBER_IMPORT_MAX_BYTES long (the request's limit refuses a larger one first).
 */
export const memberImportInput = z.strictObject({
  csv: z.string(msg('invalidInput')).max(MEMBER_IMPORT_MAX_BYTES, msg('memberImportTooLarge')),
  confirm: z.boolean(msg('invalidInput')).optional(),
});
export type MemberImportInput = z.input<typeof memberImportInput>;
