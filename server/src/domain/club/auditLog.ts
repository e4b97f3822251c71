import { AUDIT_KINDS, AUDIT_PAGE_SIZE, newId, type AuditKind } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { AuditLogTable, Database } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput } from '../errors.js';

/*
 * The audit log (docs/architecture.md, "Audit log"; docs/product.md, Admin log): every admin action
 * that changes money, tickets, people or the club's settings leaves a row in the same transaction —
 * who, when, what, and what changed before and after. The domain functions that do such a change call
 * `audit`; a member's own actions (answers, paid reports, their profile) are not in it. Rows are never
 * changed: the log answers "who changed this ticket, when?".
 */

/** What an action changed: the fields it touched, each before and after (absent: not there). */
export interface AuditEntry {
  kind: AuditKind;
  action: string;
  userId?: string | null;
  eventId?: string | null;
  entityId?: string | null;
  before?: object | null;
  after?: object | null;
  /** Recorded when a member does it too: a member erasing their own account. */
  recordedForMembers?: boolean;
}

/** Records an action of `actor` (an admin, or the system's jobs) in the write's transaction. */
export async function audit(w: WriteContext, actor: Actor, entry: AuditEntry): Promise<void> {
  if (!actor.system && actor.scope !== 'admin' && !entry.recordedForMembers) return;
  await w.db
    .insertInto('audit_log')
    .values({
      id: newId(),
      at: w.now,
      actor_id: actor.id,
      kind: entry.kind,
      action: entry.action,
      user_id: entry.userId ?? null,
      event_id: entry.eventId ?? null,
      entity_id: entry.entityId ?? null,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
    })
    .execute();
}

/** The fields of `after` that differ from `before`, each side with only those fields: what an update changed. */
export function changedFields<T extends object>(before: T, after: Partial<T>): { before: Partial<T>; after: Partial<T> } {
  const was: Partial<T> = {};
  const is: Partial<T> = {};
  for (const key of Object.keys(after) as (keyof T)[]) {
    if (after[key] === undefined || after[key] === before[key]) continue;
    was[key] = before[key];
    is[key] = after[key];
  }
  return { before: was, after: is };
}

/** A filter of the log (GET /api/audit); `before` is the cursor of the last row seen. */
export interface AuditFilter {
  user_id?: string;
  event_id?: string;
  kind?: string;
  before?: string;
}

export interface AuditRow {
  id: string;
  at: string;
  actor_id: string;
  actor_name: string | null;
  kind: AuditKind;
  action: string;
  user_id: string | null;
  username: string | null;
  event_id: string | null;
  event_title: string | null;
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/** The cursor of a row: its time and id (rows of one transaction share the time). */
const cursorOf = (row: Pick<AuditLogTable, 'at' | 'id'>) => `${row.at}|${row.id}`;

function parseCursor(cursor: string): { at: string; id: string } {
  const [at, id] = cursor.split('|');
  if (!at || !id || Number.isNaN(Date.parse(at))) throw badInput('auditCursorInvalid');
  return { at, id };
}

/**
 * GET /api/audit (admin): the log newest first, AUDIT_PAGE_SIZE rows a page, narrowed to a member,
 * an event or a kind; `next` is the cursor of the following page, null at the end.
 */
export async function listAudit(
  db: Kysely<Database>,
  actor: Actor,
  filter: AuditFilter,
  limit = AUDIT_PAGE_SIZE,
): Promise<{ entries: AuditRow[]; next: string | null }> {
  requireAdmin(actor);
  if (filter.kind !== undefined && !(AUDIT_KINDS as readonly string[]).includes(filter.kind)) throw badInput('auditKindInvalid');
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as actor', 'actor.id', 'a.actor_id')
    .leftJoin('users as member', 'member.id', 'a.user_id')
    .leftJoin('events as e', 'e.id', 'a.event_id')
    .select([
      'a.id',
      'a.at',
      'a.actor_id',
      'actor.username as actor_name',
      'a.kind',
      'a.action',
      'a.user_id',
      'member.username as username',
      'a.event_id',
      'e.title as event_title',
      'a.entity_id',
      'a.before',
      'a.after',
    ]);
  if (filter.user_id) query = query.where('a.user_id', '=', filter.user_id);
  if (filter.event_id) query = query.where('a.event_id', '=', filter.event_id);
  if (filter.kind) query = query.where('a.kind', '=', filter.kind as AuditKind);
  if (filter.before) {
    const { at, id } = parseCursor(filter.before);
    query = query.where((eb) => eb.or([eb('a.at', '<', at), eb.and([eb('a.at', '=', at), eb('a.id', '<', id)])]));
  }
  const rows = await query
    .orderBy('a.at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => ({
      ...row,
      before: row.before ? (JSON.parse(row.before) as Record<string, unknown>) : null,
      after: row.after ? (JSON.parse(row.after) as Record<string, unknown>) : null,
    })),
    next: rows.length > limit ? cursorOf(page[page.length - 1]!) : null,
  };
}
