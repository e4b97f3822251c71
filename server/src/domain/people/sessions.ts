import { newId, SESSION_IDLE_MS } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, SessionRow } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { endCalendarToken } from '../events/calendar.js';
import { notFound } from '../errors.js';

/*
 * Sessions (docs/architecture.md, sessions): every token names one; signing out ends it, the user
 * can end all their others, and a password change, deletion or decline ends all of them. A session
 * unused for SESSION_IDLE_MS is over. Ending records `session.ended`, so open change streams close
 * at once and the session cache forgets it.
 */

export interface SessionView {
  id: string;
  device_name: string;
  created_at: string;
  last_seen_at: string;
  /** The session of the token that asked. */
  current: boolean;
}

const DEVICE_NAME_MAX = 100;

export async function startSession(w: WriteContext, userId: string, deviceName: string): Promise<SessionRow> {
  await endIdleSessions(w, userId);
  const row: SessionRow = {
    id: newId(),
    user_id: userId,
    device_name: deviceName.trim().slice(0, DEVICE_NAME_MAX) || 'Browser',
    created_at: w.now,
    last_seen_at: w.now,
  };
  await w.db.insertInto('sessions').values(row).execute();
  w.record({ type: 'session.started', sessionId: row.id, userId, actorId: userId });
  return row;
}

export async function findSession(db: Kysely<Database>, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether a session is still usable at `now` given when it was last used. */
export function isSessionAlive(lastSeenAt: string | number, now: number): boolean {
  const seen = typeof lastSeenAt === 'number' ? lastSeenAt : Date.parse(lastSeenAt);
  return now - seen < SESSION_IDLE_MS;
}

/** Remembers that a session was used (bookkeeping outside the write convention: no domain event, no seq). */
export async function recordSessionUse(db: Kysely<Database>, id: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export async function listSessions(db: Kysely<Database>, actor: Actor, currentId: string | null): Promise<SessionView[]> {
  const rows = await db
    .selectFrom('sessions')
    .selectAll()
    .where('user_id', '=', actor.id)
    .orderBy('last_seen_at', 'desc')
    .execute();
  const now = Date.now();
  return rows
    .filter((row) => isSessionAlive(row.last_seen_at, now))
    .map((row) => ({
      id: row.id,
      device_name: row.device_name,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      current: row.id === currentId,
    }));
}

/** Ends one of the actor's own sessions; another user's session is not found (sessions are personal, admins included). */
export async function endSession(w: WriteContext, actor: Actor, id: string): Promise<void> {
  const row = await w.db.selectFrom('sessions').select(['id', 'user_id']).where('id', '=', id).executeTakeFirst();
  if (!row || row.user_id !== actor.id) throw notFound('sessionNotFound');
  await removeSessions(w, [row], actor.id);
}

/** Ends every session of the actor but `keepId`; returns how many ended. */
export async function endOtherSessions(w: WriteContext, actor: Actor, keepId: string | null): Promise<number> {
  const rows = await w.db.selectFrom('sessions').select(['id', 'user_id']).where('user_id', '=', actor.id).execute();
  const others = rows.filter((row) => row.id !== keepId);
  await removeSessions(w, others, actor.id);
  return others.length;
}

/**
 * Ends every session of a user (password changed or reset, account deleted or declined), and with
 * them their calendar feed's address (docs/architecture.md, Calendar feed): it opens the member's
 * events without a session, so it must not outlive the password either.
 */
export async function endAllSessions(w: WriteContext, userId: string, actorId: string): Promise<void> {
  const rows = await w.db.selectFrom('sessions').select(['id', 'user_id']).where('user_id', '=', userId).execute();
  await removeSessions(w, rows, actorId);
  await endCalendarToken(w, userId);
}

async function endIdleSessions(w: WriteContext, userId: string): Promise<void> {
  const cutoff = new Date(Date.parse(w.now) - SESSION_IDLE_MS).toISOString();
  await w.db.deleteFrom('sessions').where('user_id', '=', userId).where('last_seen_at', '<', cutoff).execute();
}

async function removeSessions(w: WriteContext, rows: Array<{ id: string; user_id: string }>, actorId: string): Promise<void> {
  if (rows.length === 0) return;
  await w.db
    .deleteFrom('sessions')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute();
  for (const row of rows) w.record({ type: 'session.ended', sessionId: row.id, userId: row.user_id, actorId });
}

/** Start-up housekeeping: sessions unused for SESSION_IDLE_MS are deleted. */
export async function deleteIdleSessions(db: Kysely<Database>, now = Date.now()): Promise<void> {
  const cutoff = new Date(now - SESSION_IDLE_MS).toISOString();
  await db.deleteFrom('sessions').where('last_seen_at', '<', cutoff).execute();
}
