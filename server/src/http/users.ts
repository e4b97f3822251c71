import {
  adminUserAnswer,
  adminUsersAnswer,
  centsToEuros,
  emailSchema,
  erasedUsersAnswer,
  LANGUAGES,
  MESSAGES,
  MIN_PASSWORD_LENGTH,
  msg,
  PASSWORD_MAX_LENGTH,
  SCOPES,
  userChangedAnswer,
  userCreatedAnswer,
} from '@fankurve/shared';
import { randomPassword } from '../domain/people/passwords.js';
import { write } from '../db/store.js';
import { prepareNewPassword } from '../domain/people/newPassword.js';
import { getUserForAdmin, listUsersWithDebts, type AdminUserView } from '../domain/money/debts.js';
import { createUser, setUserPassword } from '../domain/people/userAdmin.js';
import { listErasedAccounts } from '../domain/people/retention.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute, idParams, z } from './openapi.js';
import { requireActor } from './session.js';

const tag = 'Users';

/** POST /api/auth/users: username and email required; the username rules are the domain's (checkUsername). */
const createUserInput = z
  .object({
    username: z.string(msg('invalidInput')).max(200, msg('usernameTooLong')),
    email: emailSchema(),
    scope: z.enum(SCOPES, msg('invalidInput')).optional(),
    language: z.enum(LANGUAGES, msg('invalidInput')).optional(),
  })
  .strict();

/** PUT /api/auth/users/{id}/password: at least 4 characters ('Password must be at least 4 characters long'). */
const setPasswordInput = z
  .object({
    newPassword: z
      .string(msg('passwordTooShort'))
      .min(MIN_PASSWORD_LENGTH, msg('passwordTooShort'))
      .max(PASSWORD_MAX_LENGTH, msg('passwordTooLong')),
  })
  .strict();

/** A user of the admin's table at the REST edge: total_debt in euros. */
function toRestUser({ total_debt_cents, balance_cents, ...user }: AdminUserView) {
  return { ...user, total_debt: centsToEuros(total_debt_cents), balance: centsToEuros(balance_cents) };
}

/** User administration (the admin's /users and /users/{id} screens); approve, decline/delete and update live in auth.ts. */
export function userRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/users',
      tag,
      summary: 'Active users with their debts (admin)',
      answers: { 200: adminUsersAnswer },
    }),
    async (c) => {
      const users = await listUsersWithDebts(deps.store.db, requireActor(c), 'active');
      return c.json({ success: true as const, users: users.map(toRestUser) }, 200);
    },
  );

  // Before /{id}, so "erased" and "all" are not taken for an id.
  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/users/erased',
      tag,
      summary: 'Erased members, with what the books keep of each and until when (admin)',
      answers: { 200: erasedUsersAnswer },
    }),
    async (c) => {
      const users = await listErasedAccounts(deps.store.db, requireActor(c));
      return c.json({ success: true as const, users }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/users/all',
      tag,
      summary: 'Every account, pending ones included (admin)',
      answers: { 200: adminUsersAnswer },
    }),
    async (c) => {
      const users = await listUsersWithDebts(deps.store.db, requireActor(c), 'all');
      return c.json({ success: true as const, users: users.map(toRestUser) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'get',
      path: '/api/auth/users/{id}',
      tag,
      summary: 'One user with their debts (admin)',
      params: idParams,
      answers: { 200: adminUserAnswer },
    }),
    async (c) => {
      const user = await getUserForAdmin(deps.store.db, requireActor(c), c.req.valid('param').id);
      return c.json({ success: true as const, user: toRestUser(user) }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/users',
      tag,
      summary: 'Create a user with a temporary password, shown once (admin)',
      body: createUserInput,
      answers: { 201: userCreatedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const input = c.req.valid('json');
      const temporaryPassword = randomPassword();
      const password = await prepareNewPassword(temporaryPassword);
      const user = await write(deps.store, (w) => createUser(w, actor, input, password));
      return c.json({ success: true as const, message: MESSAGES.userCreated, user, temporaryPassword }, 201);
    },
  );

  app.openapi(
    apiRoute({
      method: 'put',
      path: '/api/auth/users/{id}/password',
      tag,
      summary: "Set a user's password; all their sessions end (admin)",
      params: idParams,
      body: setPasswordInput,
      answers: { 200: userChangedAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const password = await prepareNewPassword(c.req.valid('json').newPassword);
      const user = await write(deps.store, (w) => setUserPassword(w, actor, c.req.valid('param').id, password));
      return c.json({ success: true as const, message: MESSAGES.passwordUpdated, user }, 200);
    },
  );
}
