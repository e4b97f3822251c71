import { z } from 'zod';
import { LANGUAGES, SCOPES, USER_STATUSES } from '../../constants.js';
import { messageAnswerWith, successAnswer } from './common.js';

/* Answers of sign-in, registration, the user's own account and its sessions (server/src/http/auth.ts, sessions.ts, recovery.ts, meta.ts). */

/** A user as the API shows it (never the password hash): the signed-in user, and the admin's user writes. */
export const publicUser = z
  .strictObject({
    id: z.string(),
    username: z.string(),
    email: z.string(),
    scope: z.enum(SCOPES),
    status: z.enum(USER_STATUSES),
    language: z.enum(LANGUAGES),
    must_change_password: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: 'User' });
export type PublicUser = z.infer<typeof publicUser>;

/**
 * POST /api/auth/register (201): the account waits for an admin's approval; or, registered through an
 * invite that approves at once (docs/architecture.md, Invites), it is active and signed in on this device.
 */
export const registerAnswer = z.union([
  messageAnswerWith({ requiresApproval: z.literal(true), user: publicUser }),
  messageAnswerWith({ requiresApproval: z.literal(false), user: publicUser, token: z.string(), sessionId: z.string() }),
]);
export type RegisterAnswer = z.infer<typeof registerAnswer>;

/** POST /api/auth/login. */
export const loginAnswer = successAnswer({ token: z.string(), sessionId: z.string(), user: publicUser });
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** POST /api/auth/change-password: the old token is void, the answer carries this device's new one. */
export const passwordChangedAnswer = messageAnswerWith({ token: z.string(), user: publicUser });
export type PasswordChangedAnswer = z.infer<typeof passwordChangedAnswer>;

/** GET /api/auth/profile, PUT /api/auth/users/{id}. */
export const userAnswer = successAnswer({ user: publicUser });
export type UserAnswer = z.infer<typeof userAnswer>;

/** PUT /api/auth/users/{id}/approve, PUT /api/auth/users/{id}/password. */
export const userChangedAnswer = messageAnswerWith({ user: publicUser });
export type UserChangedAnswer = z.infer<typeof userChangedAnswer>;

/** GET /api/auth/users/pending, GET /api/admin/pending-users: registrations waiting for approval. */
export const pendingUsersAnswer = successAnswer({ users: z.array(publicUser) });
export type PendingUsersAnswer = z.infer<typeof pendingUsersAnswer>;

/** One signed-in device of the user (docs/architecture.md, "Sessions, throttles and limits"). */
export const deviceSession = z
  .strictObject({
    id: z.string(),
    device_name: z.string(),
    created_at: z.string(),
    last_seen_at: z.string(),
    /** The session of the token that asked. */
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type DeviceSession = z.infer<typeof deviceSession>;

/** GET /api/auth/sessions. */
export const sessionsAnswer = successAnswer({ sessions: z.array(deviceSession) });
export type SessionsAnswer = z.infer<typeof sessionsAnswer>;

/** POST /api/auth/sessions/end-others: how many sessions ended. */
export const otherSessionsEndedAnswer = messageAnswerWith({ ended: z.number().int() });
export type OtherSessionsEndedAnswer = z.infer<typeof otherSessionsEndedAnswer>;

/** GET /api/version. */
export const versionAnswer = successAnswer({ version: z.string() });
export type VersionAnswer = z.infer<typeof versionAnswer>;
