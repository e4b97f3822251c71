import { z } from 'zod';
import { messageCode, successAnswer } from './common.js';

/* Answers of the member import and the data export (server/src/http/memberImport.ts, dataExport.ts). */

/**
 * One row of the list as the preview shows it: its line in the file, the name and e-mail address as
 * written, and what keeps it from being created (a message code), or null when it is created.
 */
export const memberImportRow = z
  .strictObject({ line: z.number().int(), username: z.string(), email: z.string(), problem: messageCode.nullable() })
  .meta({ id: 'MemberImportRow' });
export type MemberImportRow = z.infer<typeof memberImportRow>;

/** POST /api/users/import: every row with its problem, and how many accounts were created (0 for a preview). */
export const memberImportAnswer = successAnswer({ rows: z.array(memberImportRow), created: z.number().int() });
export type MemberImportAnswer = z.infer<typeof memberImportAnswer>;

/** GET /api/me/export and /api/users/{id}/export: a ZIP archive of JSON and CSV files, not JSON. */
export const zipFileAnswer = z.string().meta({ id: 'ZipFile', description: 'A ZIP archive (application/zip)', format: 'binary' });
