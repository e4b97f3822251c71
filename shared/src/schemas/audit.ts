import { z } from 'zod';
import { AUDIT_KINDS } from '../constants.js';
import { msg } from './common.js';

/** GET /api/audit: narrowed to a member, an event or a kind; `before` the cursor of the last row seen (docs/architecture.md, Audit log). */
export const auditQuery = z.object({
  user_id: z.string(msg('invalidInput')).max(64, msg('invalidInput')).optional(),
  event_id: z.string(msg('invalidInput')).max(64, msg('invalidInput')).optional(),
  kind: z.enum(AUDIT_KINDS, msg('auditKindInvalid')).optional(),
  before: z.string(msg('auditCursorInvalid')).max(200, msg('auditCursorInvalid')).optional(),
});
export type AuditQuery = z.input<typeof auditQuery>;
