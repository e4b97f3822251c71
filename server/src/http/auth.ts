import {
  changePasswordInput,
  loginAnswer,
  loginInput,
  MESSAGES,
  passwordChangedAnswer,
  pendingUsersAnswer,
  messageAnswer,
  registerAnswer,
  registerInput,
  updateUserInput,
  userAnswer,
  userChangedAnswer,
  usernameKey,
} from '@fankurve/shared';
import { authenticate, changePassword, register, requireCurrentPassword, toPublicUser } from '../domain/people/accounts.js';
import { prepareNewPassword } from '../domain/people/newPassword.js';
import { approveUser, listPendingUsers, updateUser } from '../domain/people/userAdmin.js';
import { deleteUser } from '../domain/people/erasure.js';
import { deviceIdOf, newDeviceId, setDeviceCookie } from '../auth/deviceCookie.js';
import { deviceNameOf } from '../auth/deviceName.js';
import type { GuessTicket } from '../auth/throttle.js';
import { write } from '../db/store.js';
import { DomainError, tooManyRequests } from '../domain/errors.js';
import { checkInvite } from '../domain/people/invites.js';
import { startSession } from '../domain/people/sessions.js';
import type { Api, AppDeps } from './context.js';
import { throttledInviteCheck } from './invites.js';
import { apiRoute, idParams } from './openapi.js';
import { clientAddress, requireActor } from './session.js';

const tag = 'Auth';

export function authRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/register',
      tag,
      summary: 'Register (pending until approved; through an invite that approves at once: active and signed in, with a token)',
      body: registerInput,
      access: 'public',
      answers: { 201: registerAnswer },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { invite } = input;
      if (invite !== undefined) {
        // An invite is checked before the slow hashing, its guesses throttled like sign-in's; a valid
        // one's registrations are bounded by its uses, not by the address (a club evening on one
        // Wi-Fi registers through one QR code: docs/architecture.md, Invites).
        await throttledInviteCheck(c, deps, () => checkInvite(deps.store.db, invite));
      } else {
        const limit = await deps.registrations.take(clientAddress(c, deps.config.trustProxy));
        if (!limit.ok) throw tooManyRequests('tooManyRegistrations', limit.retryAfterMs);
      }
      const password = await prepareNewPassword(input.password);
      // Approved at once by its invite: the account is signed in on this device in the same write.
      const { row, session } = await write(deps.store, async (w) => {
        const registered = await register(w, input, password);
        const started =
          registered.status === 'active' ? await startSession(w, registered.id, deviceNameOf(c.req.header('user-agent'))) : null;
        return { row: registered, session: started };
      });
      const user = toPublicUser(row);
      if (!session) {
        return c.json(
          { success: true as const, requiresApproval: true as const, message: MESSAGES.registrationPending, user },
          201,
        );
      }
      const token = await deps.tokens.sign(row.id, row.token_version, session.id);
      return c.json(
        {
          success: true as const,
          requiresApproval: false as const,
          message: MESSAGES.registrationActive,
          user,
          token,
          sessionId: session.id,
        },
        201,
      );
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/login',
      tag,
      summary: 'Sign in',
      body: loginInput,
      access: 'public',
      answers: { 200: loginAnswer },
    }),
    async (c) => {
      const input = c.req.valid('json');
      // A device (its cookie; a new one gets an id now) or address that signed in to the account
      // before is trusted: not delayed by others' guessing and checked first when the server is busy.
      const device = deviceIdOf(c) ?? newDeviceId();
      const address = clientAddress(c, deps.config.trustProxy);
      const attempt = await deps.throttle.begin(usernameKey(input.username), { address, device });
      const user = await settled(attempt, () => authenticate(deps.store.db, input, attempt.trusted ? 'trusted' : 'normal'));
      setDeviceCookie(c, device, deps.config.publicUrl);
      const session = await write(deps.store, (w) => startSession(w, user.id, deviceNameOf(c.req.header('user-agent'))));
      const token = await deps.tokens.sign(user.id, user.token_version, session.id);
      return c.json({ success: true as const, token, sessionId: session.id, user: toPublicUser(user) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/profile',
      tag,
      summary: 'The signed-in user',
      access: 'password-change',
      answers: { 200: userAnswer },
    }),
    async (c) => {
      requireActor(c, { allowPasswordChangePending: true });
      return c.json({ success: true as const, user: toPublicUser(c.get('user')!) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/change-password',
      tag,
      summary: 'Change own password',
      body: changePasswordInput,
      access: 'password-change',
      answers: { 200: passwordChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c, { allowPasswordChangePending: true });
      const input = c.req.valid('json');
      const password = await prepareNewPassword(input.newPassword);
      await requireCurrentPassword(deps.store.db, actor, input.currentPassword);
      // Every session of the user ends (other devices are signed out); this device gets a fresh one.
      const { user, session } = await write(deps.store, async (w) => {
        const changed = await changePassword(w, actor, password);
        return { user: changed, session: await startSession(w, changed.id, deviceNameOf(c.req.header('user-agent'))) };
      });
      const token = await deps.tokens.sign(user.id, user.token_version, session.id);
      return c.json({ success: true as const, message: MESSAGES.passwordChanged, token, user: toPublicUser(user) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/users/pending',
      tag,
      summary: 'Pending registrations (admin)',
      answers: { 200: pendingUsersAnswer },
    }),
    async (c) => {
      const users = await listPendingUsers(deps.store.db, requireActor(c));
      return c.json({ success: true as const, users }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/auth/users/{id}/approve',
      tag,
      summary: 'Approve a registration (admin)',
      params: idParams,
      answers: { 200: userChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const user = await write(deps.store, (w) => approveUser(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.userApproved, user }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'delete',
      path: '/api/auth/users/{id}',
      tag,
      summary: 'Decline a registration or delete a user (admin)',
      params: idParams,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      await write(deps.store, (w) => deleteUser(w, actor, c.req.valid('param').id));
      return c.json({ success: true as const, message: MESSAGES.userDeleted }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/auth/users/{id}',
      tag,
      summary: 'Update a user (own language; admin: all fields)',
      params: idParams,
      body: updateUserInput,
      answers: { 200: userAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const user = await write(deps.store, (w) => updateUser(w, actor, c.req.valid('param').id, c.req.valid('json')));
      return c.json({ success: true as const, user }, 200);
    },
  );
}

/** Runs a sign-in check and settles its throttle attempt: a wrong password counts, anything else does not. */
async function settled<T>(attempt: GuessTicket, check: () => Promise<T>): Promise<T> {
  try {
    const result = await check();
    await attempt.succeeded();
    return result;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'invalidCredentials') await attempt.failed();
    else await attempt.cancelled();
    throw error;
  }
}
