import { z } from 'zod';
import { AUDIT_KINDS } from '../../constants.js';
import { successAnswer, textOrNull } from './common.js';

/* Answers of the audit log's route (server/src/http/audit.ts; docs/architecture.md, Audit log). */

const changed = z.record(z.string(), z.unknown()).nullable();

/** One admin action: who, when, what, the member and event it concerns, what changed before and after. */
export const auditEntry = z
  .strictObject({
    id: z.string(),
    at: z.string(),
    actor_id: z.string(),
    /** The admin's name; null for the system's jobs and for an erased account. */
    actor_name: textOrNull,
    kind: z.enum(AUDIT_KINDS),
    action: z.string(),
    user_id: textOrNull,
    username: textOrNull,
    event_id: textOrNull,
    event_title: textOrNull,
    entity_id: textOrNull,
    before: changed,
    after: changed,
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntryView = z.infer<typeof auditEntry>;

/** GET /api/audit: a page, newest first; `next` the cursor of the following page, null at the end. */
export const auditAnswer = successAnswer({ entries: z.array(auditEntry), next: textOrNull });
export type AuditAnswer = z.infer<typeof auditAnswer>;
