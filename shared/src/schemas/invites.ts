import { z } from 'zod';
import { INVITE_MAX_USES, isIsoDateTime } from '../rules/invites.js';
import { msg } from './common.js';

/**
 * POST /api/invites (admin; docs/architecture.md, Invites): until when the link works (an ISO 8601
 * date and time with its zone, after now and at most a year ahead: the domain checks those two with
 * rules/invites.ts checkInviteExpiry), for how many registrations (1 to 1000), and whether those
 * registrations are approved at once.
 */
export const inviteInput = z
  .object({
    expires_at: z
      .string(msg('inviteExpiryInvalid'))
      .max(40, msg('inviteExpiryInvalid'))
      .refine(isIsoDateTime, msg('inviteExpiryInvalid')),
    max_uses: z
      .number(msg('inviteMaxUsesInvalid'))
      .int(msg('inviteMaxUsesInvalid'))
      .min(1, msg('inviteMaxUsesInvalid'))
      .max(INVITE_MAX_USES, msg('inviteMaxUsesInvalid')),
    approve: z.boolean(msg('inviteApproveInvalid')),
  })
  .strict();
export type InviteInput = z.infer<typeof inviteInput>;

/** An invite's token as a link carries it (base64url); anything longer opens no invite. */
export const inviteToken = z.string(msg('inviteNotFound')).min(1, msg('inviteNotFound')).max(200, msg('inviteNotFound'));

/** GET /api/invites/check/{token}. */
export const inviteTokenParams = z.object({ token: inviteToken });
