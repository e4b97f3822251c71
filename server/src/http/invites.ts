import {
  inviteCheckAnswer,
  inviteCreatedAnswer,
  inviteInput,
  invitesAnswer,
  inviteTokenParams,
  MESSAGES,
  messageAnswer,
} from '@fankurve/shared';
import type { Context } from 'hono';
import { write } from '../db/store.js';
import { DomainError, tooManyRequests } from '../domain/errors.js';
import { checkInvite, createInvite, listInvites, revokeInvite } from '../domain/people/invites.js';
import type { Api, AppDeps, AppEnv } from './context.js';
import { apiRoute, idParams } from './openapi.js';
import { clientAddress, requireActor } from './session.js';

const tag = 'Invites';

/**
 * The sign-in throttle's "account" for a client's invite tokens: a name no username can have (no
 * username holds a control character), one per address, so the address's guesses are slowed like
 * guesses at one account (docs/architecture.md, Invites) and nobody else's invites wait for them.
 */
const inviteGuesses = (address: string) => `\u0001invite:${address}`;

/** The throttle's 429 in the words of invites (its wait kept for Retry-After). */
function asInviteRefusal(error: unknown): unknown {
  if (error instanceof DomainError && error.status === 429 && error.code !== 'serverBusy') {
    return tooManyRequests('tooManyInviteAttempts', error.retryAfterMs ?? 60_000);
  }
  return error;
}

/**
 * Runs a check of an invite token under the sign-in throttle (docs/architecture.md, "Sessions,
 * throttles and limits"), per client address: a token that is no invite counts as a failed guess
 * (5 free, then one at a time with a wait doubling up to a minute; at most 10 per 15 minutes, then
 * 429 `tooManyInviteAttempts`); a known token neither counts nor clears earlier guesses, and never
 * makes the address trusted. Used by GET /api/invites/check/{token} and by registration.
 */
export async function throttledInviteCheck<T>(c: Context<AppEnv>, deps: AppDeps, check: () => Promise<T>): Promise<T> {
  const address = clientAddress(c, deps.config.trustProxy);
  let ticket;
  try {
    ticket = await deps.throttle.begin(inviteGuesses(address), address);
  } catch (error) {
    throw asInviteRefusal(error);
  }
  try {
    const result = await check();
    await ticket.cancelled();
    return result;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'inviteNotFound') await ticket.failed();
    else await ticket.cancelled();
    throw error;
  }
}

/** Invites (docs/architecture.md, Invites): the admin's links for registrations, and the public check of a link. */
export function inviteRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/invites',
      tag,
      summary: 'Make an invite link: until when, for how many registrations, approving them at once or not (admin)',
      body: inviteInput,
      access: 'admin',
      answers: { 201: inviteCreatedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const invite = await write(deps.store, (w) => createInvite(w, actor, c.req.valid('json'), deps.config.publicUrl));
      return c.json({ success: true as const, message: MESSAGES.inviteCreated, invite }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/invites',
      tag,
      summary: 'Every invite with its link, its uses and who registered through it, newest first (admin)',
      access: 'admin',
      answers: { 200: invitesAnswer },
    }),
    async (c) => {
      const invites = await listInvites(deps.store.db, requireActor(c), deps.config.publicUrl);
      return c.json({ success: true as const, invites }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/invites/{id}',
      tag,
      summary: 'Withdraw an invite: its link registers nobody any more; it stays listed as revoked (admin)',
      params: idParams,
      access: 'admin',
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => revokeInvite(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.inviteWithdrawn }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/invites/check/{token}',
      tag,
      summary:
        'Whether an invite link can be used now (the registration page asks first): its end and whether it approves at once; 404 inviteNotFound, 409 inviteExpired, inviteUsedUp or inviteRevoked; guesses are throttled (429)',
      params: inviteTokenParams,
      access: 'public',
      answers: { 200: inviteCheckAnswer },
    }),
    async (c) => {
      const { token } = c.req.valid('param');
      const invite = await throttledInviteCheck(c, deps, () => checkInvite(deps.store.db, token));
      c.header('Cache-Control', 'no-store');
      return c.json({ success: true as const, invite }, 200);
    },
  );
}
