import {
  checkNewPassword,
  checkUsername,
  DEFAULT_LANGUAGE,
  newId,
  normaliseUsername,
  summarizeDebts,
  usernameKey,
  type LoginInput,
  type RegisterInput,
  type UpdateUserInput,
} from '@fankurve/shared';
import { sql, type Kysely } from 'kysely';
import { hashPassword, randomPassword, verifyPassword, type HashPriority } from '../auth/passwords.js';
import type { Database, UserRow } from '../db/schema.js';
import { toBool, type WriteContext } from '../db/store.js';
import { isAdmin, requireAdmin, SYSTEM_ACTOR, type Actor } from './actor.js';
import { badInput, conflict, DomainError, forbidden, notFound } from './errors.js';
import { endOpenResets } from './passwordResets.js';
import { endAllSessions } from './sessions.js';
import { ticketRowOf } from './tickets.js';
import { usernameSkeleton } from './usernameSkeleton.js';

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
  // No account has a NUL in its name (refused since issue 7), and PostgreSQL text cannot even hold one.
  if (name.includes('\u0000')) return undefined;
  const key = usernameKey(name);
  const rows = await usersWithKey(db, key);
  return rows.find((row) => normaliseUsername(row.username) === name) ?? rows.find((row) => row.username_key === key);
}

async function assertNamesFree(db: Kysely<Database>, username: string | undefined, email: string | undefined, exceptId?: string) {
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
 * A new password, checked (SPEC 5: at least 4 characters) and hashed before the write: argon2 is
 * slow and must never hold a transaction (and with it every other writer) open.
 */
export interface PreparedPassword {
  hash: string;
}

export async function prepareNewPassword(password: string): Promise<PreparedPassword> {
  const problem = checkNewPassword(password);
  if (problem) throw badInput(problem);
  return { hash: await hashPassword(password) };
}

/** Registration creates a pending account; an admin approves it before it can sign in (SPEC 4). */
export async function register(w: WriteContext, input: RegisterInput, password: PreparedPassword): Promise<PublicUser> {
  await assertNamesFree(w.db, input.username, input.email);
  const row: UserRow = {
    id: newId(),
    username: input.username,
    username_key: usernameKey(input.username),
    username_skeleton: usernameSkeleton(input.username),
    email: input.email,
    password_hash: password.hash,
    scope: 'user',
    status: 'pending',
    language: input.language ?? DEFAULT_LANGUAGE,
    must_change_password: 0,
    token_version: 0,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('members'),
    deleted: 0,
  };
  await w.db.insertInto('users').values(row).execute();
  w.record({ type: 'user.registered', userId: row.id, actorId: row.id });
  return toPublicUser(row);
}

/**
 * Checks credentials; a pending account gets its own clear refusal. Throttling is the caller's (per
 * IP); so is `priority`: 'trusted' for a sign-in from an address or device that signed in to the
 * account before, whose password check goes ahead of others' (auth/passwords.ts HashGate).
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
  return toPublicUser({ ...user, ...fields });
}

/**
 * Declining a registration or deleting a user (admin). The account becomes a tombstone, so its
 * tokens and open change streams stop working at once and members' devices drop it; its
 * attendances go with it.
 */
export async function deleteUser(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  if (id === actor.id) throw badInput('cannotDeleteSelf');
  const user = await requireTarget(w, id);
  await w.db
    .updateTable('users')
    .set({ deleted: 1, token_version: user.token_version + 1, updated_at: w.now, seq: await w.nextSeq('members') })
    .where('id', '=', id)
    .execute();
  const attendances = await w.db
    .selectFrom('attendees')
    .select('id')
    .where('deleted', '=', 0)
    .where((eb) => eb.or([eb('user_id', '=', id), eb('brought_by', '=', id)]))
    .execute();
  for (const attendance of attendances) {
    await w.db
      .updateTable('attendees')
      .set({ deleted: 1, updated_at: w.now, seq: await w.nextSeq('attendees') })
      .where('id', '=', attendance.id)
      .execute();
  }
  await endAllSessions(w, id, actor.id);
  w.record({ type: user.status === 'pending' ? 'user.declined' : 'user.deleted', userId: id, actorId: actor.id });
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
  const id = newId();
  const username = normaliseUsername(options.username);
  await w.db
    .insertInto('users')
    .values({
      id,
      username,
      username_key: usernameKey(username),
      username_skeleton: usernameSkeleton(username),
      email: `${options.username}@localhost`,
      password_hash: options.password.hash,
      scope: 'admin',
      status: 'active',
      language: 'de',
      must_change_password: options.mustChangePassword ? 1 : 0,
      token_version: 0,
      created_at: w.now,
      updated_at: w.now,
      seq: await w.nextSeq('members'),
    })
    .execute();
  w.record({ type: 'user.approved', userId: id, actorId: SYSTEM_ACTOR.id });
  return true;
}

/** Whether the database has an admin (start-up checks it before hashing a bootstrap password). */
export async function hasAdmin(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('scope', '=', 'admin').where('deleted', '=', 0).executeTakeFirst();
  return row !== undefined;
}

// ── user administration (issue 8: /users, /users/{id}) ──

/** A user in the admin's user table: the public fields plus what they owe (SPEC 3, User). */
export interface AdminUserView extends PublicUser {
  unpaid_count: number;
  /** Integer cents of the known prices; the REST edge speaks euros. */
  total_debt_cents: number;
  /** Unpaid tickets whose price is still open (not in the total). */
  open_price_count: number;
}

type UserDebt = { count: number; cents: number; openPriceCount: number };

/**
 * Every debtor's unpaid tickets: bought and not paid, owed by the attendee or for a guest by the
 * member who brought them. Rows of archived events count: their tickets are still debts. The SQL
 * narrows to bought, unpaid rows; the shared rule `summarizeDebts` decides (a price still open is
 * counted apart), as for /debts and /my-tickets.
 */
async function debtsByUser(db: Kysely<Database>): Promise<Map<string, UserDebt>> {
  const rows = await db
    .selectFrom('attendees')
    .selectAll()
    .where('deleted', '=', 0)
    .where('bought', '=', 1)
    .where('paid', '=', 0)
    .execute();
  const debts = new Map<string, UserDebt>();
  for (const debt of summarizeDebts(rows.map(ticketRowOf))) {
    debts.set(debt.debtorId, { count: debt.unpaidCount, cents: debt.totalCents, openPriceCount: debt.openPriceCount });
  }
  return debts;
}

function debtView(user: UserRow, debt: UserDebt | undefined): AdminUserView {
  return {
    ...toPublicUser(user),
    unpaid_count: debt?.count ?? 0,
    total_debt_cents: debt?.cents ?? 0,
    open_price_count: debt?.openPriceCount ?? 0,
  };
}

/**
 * The admin's user table. `status` 'active' (the default) lists approved accounts, 'all' every live
 * account, pending registrations included. Sorted by username key.
 */
export async function listUsersWithDebts(
  db: Kysely<Database>,
  actor: Actor,
  which: 'active' | 'all' = 'active',
): Promise<AdminUserView[]> {
  requireAdmin(actor);
  let query = db.selectFrom('users').selectAll().where('deleted', '=', 0);
  if (which === 'active') query = query.where('status', '=', 'active');
  const [rows, debts] = await Promise.all([query.orderBy('username_key').orderBy('id').execute(), debtsByUser(db)]);
  return rows.map((row) => {
    const debt = debts.get(row.id);
    return debtView(row, debt);
  });
}

/** One user with their debt figures (admin); 404 'User not found' for an unknown or deleted id. */
export async function getUserForAdmin(db: Kysely<Database>, actor: Actor, id: string): Promise<AdminUserView> {
  requireAdmin(actor);
  const user = await findLiveUser(db, id);
  if (!user) throw notFound('userNotFound');
  const debt = (await debtsByUser(db)).get(id);
  return debtView(user, debt);
}

export interface CreateUserInput {
  username: string;
  email: string;
  scope?: 'admin' | 'user';
  language?: 'de' | 'en';
}

/**
 * An admin creates an account (SPEC 4): active at once, with a temporary password (prepared and
 * hashed by the caller, shown to the admin once) that must be changed at the first sign-in.
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
  const row: UserRow = {
    id: newId(),
    username: checked.value,
    username_key: usernameKey(checked.value),
    username_skeleton: usernameSkeleton(checked.value),
    email: input.email,
    password_hash: password.hash,
    scope: input.scope ?? 'user',
    status: 'active',
    language: input.language ?? 'de',
    must_change_password: 1,
    token_version: 0,
    created_at: w.now,
    updated_at: w.now,
    seq: await w.nextSeq('members'),
    deleted: 0,
  };
  await w.db.insertInto('users').values(row).execute();
  w.record({ type: 'user.approved', userId: row.id, actorId: actor.id });
  return toPublicUser(row);
}

/**
 * An admin sets a user's password (SPEC 5: at least 4 characters, checked by prepareNewPassword).
 * All the user's sessions and change streams end. Set for someone else, it is a password the admin
 * knows, so that user must change it at the next sign-in; an admin setting their own does not.
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
  return toPublicUser({ ...user, ...fields });
}
