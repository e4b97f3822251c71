import {
  DEFAULT_LANGUAGE,
  newId,
  normaliseUsername,
  usernameKey,
  type Language,
  type LoginInput,
  type RegisterInput,
} from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';
import { hashPassword, randomPassword, verifyPassword, type HashPriority } from './passwords.js';
import type { Database, UserRow } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import type { Actor } from '../actor.js';
import { badInput, conflict, DomainError } from '../errors.js';
import type { PreparedPassword } from './newPassword.js';
import { claimInvite, recordInviteUse } from './invites.js';
import { endOpenResets } from './passwordResets.js';
import { endAllSessions } from './sessions.js';
import { usernameSkeleton } from '../../db/usernameSkeleton.js';

/*
 * A member's own account: registering, signing in, their profile as the API shows it, and their own
 * password. What admins do to accounts is in userAdmin.ts; what an account owes, in debts.ts.
 */

/** A user as the API shows it (never the password hash). */
export interface PublicUser {
  id: string;
  username: string;
  email: string;
  scope: 'admin' | 'user';
  status: 'pending' | 'active';
  language: 'de' | 'en';
  must_change_password: boolean;
  created_at: string;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    scope: row.scope,
    status: row.status,
    language: row.language,
    must_change_password: toBool(row.must_change_password),
    created_at: row.created_at,
  };
}

export const toActor = (user: UserRow): Actor => ({ id: user.id, username: user.username, scope: user.scope });

export async function findLiveUser(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).where('deleted', '=', 0).executeTakeFirst();
}

/**
 * The live users a name folds to (usernames are compared by usernameKey(), never by SQL lower()): the
 * one with that key, and any with `<key>#<id>`, the key migration 003 gave the later of two
 * accounts whose names came to fold together. Oldest first.
 */
async function usersWithKey(db: Kysely<Database>, key: string): Promise<UserRow[]> {
  const suffixed = `${key}#`;
  return db
    .selectFrom('users')
    .selectAll()
    .where('deleted', '=', 0)
    .where((eb) =>
      eb.or([
        eb('username_key', '=', key),
        // substr counts characters (code points) on SQLite and PostgreSQL alike.
        eb(sql`substr(username_key, 1, ${sql.lit([...suffixed].length)})`, '=', suffixed),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * The account a sign-in names: the one whose name is exactly the (normalised) name typed, else the
 * one whose key it folds to. Exact first, so an account migration 003 had to give a `<key>#<id>` key
 * still signs in with its own name.
 */
async function findByUsername(db: Kysely<Database>, username: string): Promise<UserRow | undefined> {
  const name = normaliseUsername(username);
  // No account has a NUL in its name (usernames refuse control characters), and PostgreSQL text cannot even hold one.
  if (name.includes('\u0000')) return undefined;
  const key = usernameKey(name);
  const rows = await usersWithKey(db, key);
  return rows.find((row) => normaliseUsername(row.username) === name) ?? rows.find((row) => row.username_key === key);
}

/** 409 when the name (or a look-alike of it) or the email belongs to another live account. */
export async function assertNamesFree(
  db: Kysely<Database>,
  username: string | undefined,
  email: string | undefined,
  exceptId?: string,
) {
  if (username !== undefined) {
    // A folded name stays taken while any account of its key lives, a `<key>#<id>` one included.
    const taken = await usersWithKey(db, usernameKey(username));
    if (taken.some((row) => row.id !== exceptId)) throw conflict('usernameTaken');
    // Nor may it look like another live user's name ('сосо' beside 'coco'): compared by skeleton.
    const lookalike = await db
      .selectFrom('users')
      .select('id')
      .where('username_skeleton', '=', usernameSkeleton(username))
      .where('deleted', '=', 0)
      .execute();
    if (lookalike.some((row) => row.id !== exceptId)) throw conflict('usernameLooksTaken');
  }
  if (email !== undefined) {
    const taken = await db
      .selectFrom('users')
      .select('id')
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (taken && taken.id !== exceptId) throw conflict('emailTaken');
  }
}

/**
 * A new account's row, the one builder for a registration, an admin's creation and the first admin:
 * the name's key and skeleton, the language asked for or else German (DEFAULT_LANGUAGE), no token
 * issued yet. `username` is normalised and checked by the caller.
 */
export async function newUserRow(
  w: WriteContext,
  fields: {
    username: string;
    email: string;
    password: PreparedPassword;
    scope: 'admin' | 'user';
    status: 'pending' | 'active';
    language?: Language;
    mustChangePassword: boolean;
  },
): Promise<UserRow> {
  return {
    id: newId(),
    username: fields.username,
    username_key: usernameKey(fields.username),
    username_skeleton: usernameSkeleton(fields.username),
    email: fields.email,
    password_hash: fields.password.hash,
    scope: fields.scope,
    status: fields.status,
    language: fields.language ?? DEFAULT_LANGUAGE,
    must_change_password: fields.mustChangePassword ? 1 : 0,
    token_version: 0,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('members'),
    deleted: 0,
    erased_at: null,
    former_number: null,
  };
}

/**
 * Registration creates a pending account; an admin approves it before it can sign in (docs/product.md,
 * "Who uses it"). Through an invite (`input.invite`, its token) it counts one of the invite's uses and
 * is active at once when the invite approves (docs/architecture.md, Invites).
 */
export async function register(w: WriteContext, input: RegisterInput, password: PreparedPassword): Promise<UserRow> {
  await assertNamesFree(w.db, input.username, input.email);
  const invite = input.invite === undefined ? null : await claimInvite(w, input.invite);
  const row = await newUserRow(w, {
    username: input.username,
    email: input.email,
    password,
    scope: 'user',
    status: invite?.approve ? 'active' : 'pending',
    language: input.language,
    mustChangePassword: false,
  });
  await w.db.insertInto('users').values(row).execute();
  if (invite) await recordInviteUse(w, invite.id, row.id);
  w.record({
    type: 'user.registered',
    userId: row.id,
    actorId: row.id,
    ...(invite ? { inviteId: invite.id, active: invite.approve } : {}),
  });
  return row;
}

/**
 * Checks credentials; a pending account gets its own clear refusal. Throttling is the caller's (per
 * IP); so is `priority`: 'trusted' for a sign-in from an address or device that signed in to the
 * account before, whose password check goes ahead of others' (domain/people/passwords.ts HashGate).
 */
export async function authenticate(db: Kysely<Database>, input: LoginInput, priority: HashPriority = 'normal'): Promise<UserRow> {
  const user = await findByUsername(db, input.username);
  // Verify against a dummy hash when the user is unknown, so timing does not tell which names exist.
  // A refused computation (server busy) must not stay remembered as the dummy.
  dummyHash ??= hashPassword(randomPassword()).catch((error: unknown) => {
    dummyHash = undefined;
    throw error;
  });
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash), input.password, priority);
  if (!user || !ok) throw new DomainError('invalidCredentials', 401);
  if (user.status !== 'active') throw new DomainError('accountPending', 403);
  return user;
}

let dummyHash: Promise<string> | undefined;

/** Checks the actor's current password (a read, before the write that changes it). */
export async function requireCurrentPassword(db: Kysely<Database>, actor: Actor, currentPassword: string): Promise<void> {
  const user = await findLiveUser(db, actor.id);
  if (!user) throw new DomainError('sessionExpired', 401);
  if (!(await verifyPassword(user.password_hash, currentPassword))) throw badInput('currentPasswordWrong');
}

/** Sets the actor's new password; every session of theirs ends (the caller starts a fresh one for this device). */
export async function changePassword(w: WriteContext, actor: Actor, password: PreparedPassword): Promise<UserRow> {
  const user = await findLiveUser(w.db, actor.id);
  if (!user) throw new DomainError('sessionExpired', 401);
  const fields = {
    password_hash: password.hash,
    must_change_password: 0,
    token_version: user.token_version + 1,
    updated_at: w.now,
  };
  await w.db.updateTable('users').set(fields).where('id', '=', user.id).execute();
  await endOpenResets(w, user.id);
  await endAllSessions(w, user.id, actor.id);
  w.record({ type: 'password.changed', userId: user.id, actorId: actor.id });
  return { ...user, ...fields };
}
