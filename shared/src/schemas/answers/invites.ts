import { z } from 'zod';
import { messageAnswerWith, successAnswer, textOrNull } from './common.js';

/* Answers of the invite routes (server/src/http/invites.ts; docs/architecture.md, Invites). */

/** Someone who registered through an invite (a live account), with when. */
export const restInviteMember = z.strictObject({ user_id: z.string(), username: z.string(), joined_at: z.string() });

/** An invite as its admin sees it: the link (kept, so it can be shown and drawn as a QR code again), its limits and who came through it. */
export const restInvite = z
  .strictObject({
    id: z.string(),
    /** PUBLIC_URL + `/register?invite=<token>`. */
    url: z.string(),
    /** ISO 8601 UTC. */
    expires_at: z.string(),
    max_uses: z.number().int(),
    /** Registrations counted so far (those of accounts deleted since included). */
    uses: z.number().int(),
    /** Registrations through it are active at once (else they wait for an admin's approval). */
    approve: z.boolean(),
    revoked_at: textOrNull,
    created_at: z.string(),
    /** The admin who made it (null once that account is gone). */
    created_by: textOrNull,
    /** The live accounts that registered through it, oldest first. */
    members: z.array(restInviteMember),
  })
  .meta({ id: 'Invite' });
export type RestInvite = z.infer<typeof restInvite>;

/** POST /api/invites (201): the new invite. */
export const inviteCreatedAnswer = messageAnswerWith({ invite: restInvite });
export type InviteCreatedAnswer = z.infer<typeof inviteCreatedAnswer>;

/** GET /api/invites: every invite, newest first, revoked ones too. */
export const invitesAnswer = successAnswer({ invites: z.array(restInvite) });
export type InvitesAnswer = z.infer<typeof invitesAnswer>;

/** GET /api/invites/check/{token}: an invite that can be used now, as the registration page tells it. */
export const inviteCheckAnswer = successAnswer({
  invite: z.strictObject({ expires_at: z.string(), approve: z.boolean() }),
});
export type InviteCheckAnswer = z.infer<typeof inviteCheckAnswer>;
