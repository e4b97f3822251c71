import { checkUsername, normaliseUsername, usernameKey, type UpdateUserInput } from '@fankurve/shared';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema.js';
import type { WriteContext } from '../../db/store.js';
import { isAdmin, requireAdmin, SYSTEM_ACTOR, type Actor } from '../actor.js';
import { assertNamesFree, findLiveUser, newUserRow, toPublicUser, type PublicUser } from './accounts.js';
import { badInput, conflict, forbidden, notFound } from '../errors.js';
import type { PreparedPassword } from './newPassword.js';
import { endOpenResets } from './passwordResets.js';
import { endAllSessions } from './sessions.js';
import { usernameSkeleton } from '../../db/usernameSkeleton.js';
import { audit, changedFields } from '../club/auditLog.js';

/*
 * What admins do to accounts (docs/product.md, "Screens": /users, /users/{id}, /admin/tasks):
 * approve registrations, create, edit, promote and set passwords; and the first admin on an empty
 * database. Declining and deleting are erasure.ts; the user table's debt figures are in debts.ts.
 */

export async function listPendingUsers(db: Kysely<Database>, actor: Actor): Promise<PublicUser[]> {
  requireAdmin(actor);
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('status', '=', 'pending')
    .where('deleted', '=', 0)
    .orderBy('created_at')
    .execute();
  return rows.map(toPublicUser);
}

async function requireTarget(w: WriteContext, id: string): Promise<UserRow> {
  const user = await findLiveUser(w.db, id);
  if (!user) throw notFound('userNotFound');
  return user;
}

export async function approveUser(w: WriteContext, actor: Actor, id: string): Promise<PublicUser> {
  requireAdmin(actor);
  const user = await requireTarget(w, id);
  if (user.status === 'active') throw conflict('userAlreadyActive');
  const fields = { status: 'active' as const, updated_at: w.now, seq: await w.nextSeq('members') };
  await w.db.updateTable('users').set(fields).where('id', '=', id).execute();
  w.record({ type: 'user.approved', userId: id, actorId: actor.id });
  await audit(w, actor, {
    kind: 'people',
    action: 'user.approve',
    userId: id,
    before: { status: user.status },
    after: { status: 'active' },
  });
  return toPublicUser({ ...user, ...fields });
}

/** Members change their own language; admins change username, email, scope and language of anyone. */
export async function updateUser(w: WriteContext, actor: Actor, id: string, input: UpdateUserInput): Promise<PublicUser> {
  const ownLanguageOnly = input.username === undefined && input.email === undefined && input.scope === undefined;
  if (!isAdmin(actor) && (id !== actor.id || !ownLanguageOnly)) throw id === actor.id ? forbidden() : forbidden('adminRequired');
  // An admin cannot demote themselves (as they cannot delete themselves), so the club never ends up without an admin.
  if (id === actor.id && input.scope !== undefined && input.scope !== actor.scope) throw forbidden('cannotDemoteSelf');
  const user = await requireTarget(w, id);
  // The input's username is normalised already (updateUserInput); the same name again is no rename.
  const renamed = input.username !== undefined && input.username !== user.username ? input.username : undefined;
  await assertNamesFree(w.db, renamed, input.email, id);
  const fields = {
    ...input,
    ...(renamed !== undefined ? { username_key: usernameKey(renamed), username_skeleton: usernameSkeleton(renamed) } : {}),
    updated_at: w.now,
    seq: await w.nextSeq('members'),
  };
  await w.db.updateTable('users').set(fields).where('id', '=', id).execute();
  w.record({ type: 'user.changed', userId: id, fields: Object.keys(input), actorId: actor.id });
  if (isAdmin(actor) && id !== actor.id) {
    const changed = changedFields<Record<string, unknown>>(user, input);
    if (Object.keys(changed.after).length > 0)
      await audit(w, actor, { kind: 'people', action: 'user.update', userId: id, ...changed });
  }
  return toPublicUser({ ...user, ...fields });
}

/**
 * First start on an empty database: the admin account ADMIN_USERNAME with ADMIN_PASSWORD, or with a
 * random password that is returned (to be printed once) and must be changed at first sign-in.
 * Returns false when an admin exists already.
 */
export async function ensureBootstrapAdmin(
  w: WriteContext,
  options: { username: string; password: PreparedPassword; mustChangePassword: boolean },
): Promise<boolean> {
  const anyAdmin = await w.db
    .selectFrom('users')
    .select('id')
    .where('scope', '=', 'admin')
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (anyAdmin) return false;
  const row = await newUserRow(w, {
    username: normaliseUsername(options.username),
    email: `${options.username}@localhost`,
    password: options.password,
    scope: 'admin',
    status: 'active',
    mustChangePassword: options.mustChangePassword,
  });
  await w.db.insertInto('users').values(row).execute();
  w.record({ type: 'user.approved', userId: row.id, actorId: SYSTEM_ACTOR.id });
  return true;
}

/** Whether the database has an admin (start-up checks it before hashing a bootstrap password). */
export async function hasAdmin(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('scope', '=', 'admin').where('deleted', '=', 0).executeTakeFirst();
  return row !== undefined;
}

export interface CreateUserInput {
  username: string;
  email: string;
  scope?: 'admin' | 'user';
  language?: 'de' | 'en';
}

/**
 * An admin creates an account: active at once, with a temporary password (prepared and hashed by
 * the caller, shown to the admin once) that must be changed at the first sign-in.
 */
export async function createUser(
  w: WriteContext,
  actor: Actor,
  input: CreateUserInput,
  password: PreparedPassword,
): Promise<PublicUser> {
  requireAdmin(actor);
  const checked = checkUsername(input.username);
  if (!checked.ok) throw badInput(checked.code);
  await assertNamesFree(w.db, checked.value, input.email);
  const row = await newUserRow(w, {
    username: checked.value,
    email: input.email,
    password,
    scope: input.scope ?? 'user',
    status: 'active',
    language: input.language,
    mustChangePassword: true,
  });
  await w.db.insertInto('users').values(row).execute();
  w.record({ type: 'user.approved', userId: row.id, actorId: actor.id });
  await audit(w, actor, {
    kind: 'people',
    action: 'user.create',
    userId: row.id,
    after: { username: row.username, email: row.email, scope: row.scope },
  });
  return toPublicUser(row);
}

/**
 * An admin sets a user's password (checked by prepareNewPassword). All the user's sessions and
 * change streams end. Set for someone else, it is a password the admin knows, so that user must
 * change it at the next sign-in; an admin setting their own does not.
 */
export async function setUserPassword(
  w: WriteContext,
  actor: Actor,
  id: string,
  password: PreparedPassword,
): Promise<PublicUser> {
  requireAdmin(actor);
  const user = await requireTarget(w, id);
  const fields = {
    password_hash: password.hash,
    must_change_password: id === actor.id ? 0 : 1,
    token_version: user.token_version + 1,
    updated_at: w.now,
  };
  await w.db.updateTable('users').set(fields).where('id', '=', id).execute();
  await endOpenResets(w, id);
  await endAllSessions(w, id, actor.id);
  w.record({ type: 'password.changed', userId: id, actorId: actor.id });
  // That a password was set is recorded, never the password or its hash.
  await audit(w, actor, { kind: 'people', action: 'user.password', userId: id });
  return toPublicUser({ ...user, ...fields });
}
