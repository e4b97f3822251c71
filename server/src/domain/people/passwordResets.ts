import { newId } from '@fankurve/shared';
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { badInput } from '../errors.js';
import { endAllSessions } from './sessions.js';
import type { PreparedPassword } from './newPassword.js';

/*
 * Password recovery by mail (docs/architecture.md, Mail). A reset token is 32 random bytes
 * (base64url) sent only in the mail; the database keeps its sha256, so a leaked database or backup
 * opens no account. A token is valid for RESET_TOKEN_TTL_MS and usable once. Using it sets the
 * password, ends every session of the user (their change streams close on `password.changed`) and
 * every other open reset link of theirs, and records it. Any other password change (own, by an
 * admin) ends the open links too (`endOpenResets`).
 */

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export const hashResetToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export interface IssuedReset {
  token: string;
  user: Pick<UserRow, 'id' | 'username' | 'email' | 'language'>;
}

/** The live account of an email address (compared case-insensitively, as registration does), if any. */
export async function findUserByEmail(db: Kysely<Database>, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(email)`, '=', email.trim().toLowerCase())
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .executeTakeFirst();
}

/**
 * Issues a reset token for the account of `email`; null when there is none (the caller answers the
 * same either way). Earlier tokens of the user stay valid until they expire, one of them is used or
 * the password changes; the user's expired and used ones are cleared. `ttlMs` is the link's
 * validity: RESET_TOKEN_TTL_MS for a forgotten password; the member import's first link is longer
 * (docs/architecture.md, Member import).
 */
export async function issuePasswordReset(
  w: WriteContext,
  email: string,
  ttlMs: number = RESET_TOKEN_TTL_MS,
): Promise<IssuedReset | null> {
  const user = await findUserByEmail(w.db, email);
  if (!user) return null;
  return issuePasswordResetFor(w, user, ttlMs);
}

/** Issues a reset token for a known account (the same rules as issuePasswordReset). */
export async function issuePasswordResetFor(
  w: WriteContext,
  user: IssuedReset['user'],
  ttlMs: number = RESET_TOKEN_TTL_MS,
): Promise<IssuedReset> {
  await w.db
    .deleteFrom('password_resets')
    .where('user_id', '=', user.id)
    .where((eb) => eb.or([eb('used', '=', 1), eb('expires_at', '<=', w.now)]))
    .execute();
  const token = randomBytes(32).toString('base64url');
  await w.db
    .insertInto('password_resets')
    .values({
      id: newId(),
      user_id: user.id,
      token_hash: hashResetToken(token),
      expires_at: new Date(Date.parse(w.now) + ttlMs).toISOString(),
      used: 0,
      created_at: w.now,
    })
    .execute();
  return { token, user: { id: user.id, username: user.username, email: user.email, language: user.language } };
}

/** The token's row while it can still be used at `now` (ISO), else null. */
async function usableReset(db: Kysely<Database>, token: string, now: string) {
  const row = await db
    .selectFrom('password_resets')
    .innerJoin('users', 'users.id', 'password_resets.user_id')
    .select([
      'password_resets.id as id',
      'password_resets.expires_at as expires_at',
      'password_resets.used as used',
      'users.id as user_id',
    ])
    .where('password_resets.token_hash', '=', hashResetToken(token))
    .where('users.deleted', '=', 0)
    .executeTakeFirst();
  if (!row || Number(row.used) === 1 || row.expires_at <= now) return null;
  return row;
}

/** A read before the slow hashing: a missing, used or expired token is refused without hashing anything. */
export async function checkResetToken(db: Kysely<Database>, token: string): Promise<void> {
  if (!(await usableReset(db, token, new Date().toISOString()))) throw badInput('invalidResetToken');
}

/** Sets the new password with a token (checked again inside the transaction); returns the user's id. */
export async function resetPassword(w: WriteContext, token: string, password: PreparedPassword): Promise<string> {
  const reset = await usableReset(w.db, token, w.now);
  if (!reset) throw badInput('invalidResetToken');
  // Used once: a second request with the same token that raced this one finds nothing to update.
  const claimed = await w.db
    .updateTable('password_resets')
    .set({ used: 1 })
    .where('id', '=', reset.id)
    .where('used', '=', 0)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw badInput('invalidResetToken');
  const userId = reset.user_id;
  await endOpenResets(w, userId);
  await w.db
    .updateTable('users')
    .set((eb) => ({
      password_hash: password.hash,
      must_change_password: 0,
      token_version: eb('token_version', '+', 1),
      updated_at: w.now,
    }))
    .where('id', '=', userId)
    .execute();
  await endAllSessions(w, userId, userId);
  w.record({ type: 'password.changed', userId, actorId: userId });
  return userId;
}

/**
 * Ends every open reset link of a user: once the password has changed (by a link, by the user, by an
 * admin), no link mailed before may change it again.
 */
export async function endOpenResets(w: WriteContext, userId: string): Promise<void> {
  await w.db.updateTable('password_resets').set({ used: 1 }).where('user_id', '=', userId).where('used', '=', 0).execute();
}
