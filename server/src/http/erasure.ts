import { eraseAccountInput, MESSAGES, messageAnswer, usernameKey } from '@fankurve/shared';
import { deviceIdOf } from '../auth/deviceCookie.js';
import { verifyPassword } from '../domain/people/passwords.js';
import { write } from '../db/store.js';
import { badInput, DomainError } from '../domain/errors.js';
import { eraseOwnAccount, erasureRefusal } from '../domain/people/erasure.js';
import type { Api, AppDeps } from './context.js';
import { apiRoute } from './openapi.js';
import { clientAddress, requireActor } from './session.js';

const tag = 'Users';

/**
 * A member erases their own account (docs/architecture.md, Erasure and retention). The password
 * confirms it, its guesses throttled like sign-in's; what keeps erasure waiting (a balance, the last
 * admin) is told before the password is even checked, so a member learns it without typing it again.
 */
export function erasureRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/me/erase',
      tag,
      summary: 'Erase the signed-in member’s account; the books keep their entries and tickets under a pseudonym',
      body: eraseAccountInput,
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const actor = requireActor(c);
      const user = c.get('user')!;
      const refusal = await erasureRefusal(deps.store.db, user);
      if (refusal) throw new DomainError(refusal, 409);
      const attempt = await deps.throttle.begin(usernameKey(user.username), {
        address: clientAddress(c, deps.config.trustProxy),
        device: deviceIdOf(c),
      });
      let passwordRight: boolean;
      try {
        passwordRight = await verifyPassword(user.password_hash, c.req.valid('json').password);
      } catch (error) {
        await attempt.cancelled();
        throw error;
      }
      if (!passwordRight) {
        await attempt.failed();
        throw badInput('erasurePasswordWrong');
      }
      await attempt.succeeded();
      await write(deps.store, (w) => eraseOwnAccount(w, actor));
      return c.json({ success: true as const, message: MESSAGES.accountErased }, 200);
    },
  );
}
