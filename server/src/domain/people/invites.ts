import {
  checkInviteExpiry,
  checkInviteMaxUses,
  INVITE_REFUSALS,
  inviteState,
  newId,
  type InviteInput,
  type RestInvite,
} from '@fankurve/shared';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, InvitesTable } from '../../db/schema.js';
import { toBool, type WriteContext } from '../../db/store.js';
import { requireAdmin, type Actor } from '../actor.js';
import { badInput, conflict, notFound, type DomainError } from '../errors.js';
import { audit } from '../club/auditLog.js';

/*
 * Invites (docs/architecture.md, Invites): an admin's link for a number of registrations until a
 * time; who registers through it is approved at once or waits for an admin, as the invite says.
 *
 * - The token is 32 random bytes (base64url) like a password reset's (passwordResets.ts), looked up
 *   by its sha256 (`token_hash`, unique). Unlike a reset token the token itself is kept too: an
 *   invite is meant to be shared (a link in a chat, a QR code at the Stammtisch), so the admin's list
 *   shows its link and QR code again; it opens a registration, never an account.
 * - A registration counts a use by one conditional update (`uses < max_uses`, not revoked, not
 *   expired) inside its write: two registrations racing for the last use, one wins and the other
 *   hears `inviteUsedUp`. The account's row in `invite_uses` says which invite it came through.
 * - Guessing tokens is throttled by the caller (http/invites.ts), like sign-in guessing.
 */

type InviteRow = Selectable<InvitesTable>;

/** Random bytes of a token: 256 bits. */
const TOKEN_BYTES = 32;

export const hashInviteToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** The link a new member opens: PUBLIC_URL + `/register?invite=<token>`. */
export const inviteUrl = (publicUrl: string, token: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/register?invite=${encodeURIComponent(token)}`;

/** An invite as its admin sees it, with who came through it. */
function toRestInvite(row: InviteRow, members: RestInvite['members'], publicUrl: string): RestInvite {
  return {
    id: row.id,
    url: inviteUrl(publicUrl, row.token),
    expires_at: row.expires_at,
    max_uses: Number(row.max_uses),
    uses: Number(row.uses),
    approve: toBool(row.approve),
    revoked_at: row.revoked_at,
    created_at: row.created_at,
    created_by: row.created_by,
    members,
  };
}

/**
 * Makes an invite (admin): its end an ISO date and time after now and at most a year ahead, 1 to
 * 1000 registrations (rules/invites.ts), approving them at once or not. Everything is checked before
 * anything is written.
 */
export async function createInvite(w: WriteContext, actor: Actor, input: InviteInput, publicUrl: string): Promise<RestInvite> {
  requireAdmin(actor);
  const expiry = checkInviteExpiry(input.expires_at, Date.parse(w.now));
  if (!expiry.ok) throw badInput(expiry.code);
  const maxUses = checkInviteMaxUses(input.max_uses);
  if (!maxUses.ok) throw badInput(maxUses.code);
  if (typeof input.approve !== 'boolean') throw badInput('inviteApproveInvalid');
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const row: InviteRow = {
    id: newId(),
    token,
    token_hash: hashInviteToken(token),
    expires_at: expiry.value,
    max_uses: maxUses.value,
    uses: 0,
    approve: input.approve ? 1 : 0,
    revoked_at: null,
    created_at: w.now,
    // The system makes no invites in practice; its id matches no user row.
    created_by: actor.system ? null : actor.id,
  };
  await w.db.insertInto('invites').values(row).execute();
  await audit(w, actor, {
    kind: 'people',
    action: 'invite.create',
    entityId: row.id,
    after: { expires_at: row.expires_at, max_uses: row.max_uses, approve: input.approve },
  });
  return toRestInvite(row, [], publicUrl);
}

/** Every invite (admin), newest first, revoked and used-up ones too, each with the live accounts that came through it. */
export async function listInvites(db: Kysely<Database>, actor: Actor, publicUrl: string): Promise<RestInvite[]> {
  requireAdmin(actor);
  const rows = await db.selectFrom('invites').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  const uses = await db
    .selectFrom('invite_uses')
    .innerJoin('users', 'users.id', 'invite_uses.user_id')
    .select([
      'invite_uses.invite_id as invite_id',
      'users.id as user_id',
      'users.username as username',
      'invite_uses.joined_at as joined_at',
    ])
    .where('users.deleted', '=', 0)
    .orderBy('invite_uses.joined_at')
    .orderBy('users.username')
    .execute();
  const byInvite = new Map<string, RestInvite['members']>();
  for (const use of uses) {
    const members = byInvite.get(use.invite_id) ?? [];
    members.push({ user_id: use.user_id, username: use.username, joined_at: use.joined_at });
    byInvite.set(use.invite_id, members);
  }
  return rows.map((row) => toRestInvite(row, byInvite.get(row.id) ?? [], publicUrl));
}

/** Withdraws an invite (admin): its link registers nobody from now on; it stays listed as revoked. Again: nothing changes. */
export async function revokeInvite(w: WriteContext, actor: Actor, id: string): Promise<void> {
  requireAdmin(actor);
  const row = await w.db.selectFrom('invites').select(['id', 'revoked_at']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('inviteNotFound');
  if (row.revoked_at !== null) return;
  await w.db.updateTable('invites').set({ revoked_at: w.now }).where('id', '=', id).execute();
  await audit(w, actor, {
    kind: 'people',
    action: 'invite.revoke',
    entityId: id,
    before: { revoked_at: null },
    after: { revoked_at: w.now },
  });
}

/** The refusal of a token that opens no registration now: unknown 404, revoked, expired or used up 409. */
function refusal(row: InviteRow | undefined, now: string): DomainError | null {
  if (!row) return notFound('inviteNotFound');
  const state = inviteState({ ...row, max_uses: Number(row.max_uses), uses: Number(row.uses) }, now);
  return state === 'open' ? null : conflict(INVITE_REFUSALS[state]);
}

const inviteByToken = (db: Kysely<Database>, token: string) =>
  db.selectFrom('invites').selectAll().where('token_hash', '=', hashInviteToken(token)).executeTakeFirst();

/**
 * What a token opens now (public: the registration page asks before the form is filled, and
 * registration asks before the slow password hashing): the invite's end and whether it approves at
 * once; else the refusal (`inviteNotFound` for a token that is no invite: the caller counts it as a guess).
 */
export async function checkInvite(db: Kysely<Database>, token: string): Promise<{ expires_at: string; approve: boolean }> {
  const row = await inviteByToken(db, token);
  const refused = refusal(row, new Date().toISOString());
  if (refused) throw refused;
  return { expires_at: row!.expires_at, approve: toBool(row!.approve) };
}

/**
 * Counts one registration on the token's invite, inside the registration's write: one conditional
 * update, so of two registrations racing for the last use only one gets it. Throws the refusal when
 * the invite cannot take it (any more).
 */
export async function claimInvite(w: WriteContext, token: string): Promise<{ id: string; approve: boolean }> {
  const row = await inviteByToken(w.db, token);
  const refused = refusal(row, w.now);
  if (refused) throw refused;
  const claimed = await w.db
    .updateTable('invites')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', row!.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', w.now)
    .whereRef('uses', '<', 'max_uses')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    // Taken or withdrawn in the meantime: say which, as it is now.
    throw refusal(await inviteByToken(w.db, token), w.now) ?? conflict('inviteUsedUp');
  }
  return { id: row!.id, approve: toBool(row!.approve) };
}

/** Notes that `userId` registered through the invite (the admin's list shows it). */
export async function recordInviteUse(w: WriteContext, inviteId: string, userId: string): Promise<void> {
  await w.db.insertInto('invite_uses').values({ invite_id: inviteId, user_id: userId, joined_at: w.now }).execute();
}
