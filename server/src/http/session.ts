import type { Context, MiddlewareHandler } from 'hono';
import { toActor } from '../domain/users.js';
import type { Actor } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';
import type { AppDeps, AppEnv } from './context.js';

/**
 * Loads the user of the bearer token on every request, so a deleted, declined or re-passworded
 * user loses access at once (token_version), and a pending user has none.
 */
export function loadSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('user', null);
    c.set('tokenProblem', null);
    const header = c.req.header('authorization');
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    if (token) {
      const claims = await deps.tokens.verify(token);
      const user = claims ? await deps.users.find(claims.sub) : undefined;
      if (user && claims && user.token_version === claims.tv && user.status === 'active') c.set('user', user);
      else c.set('tokenProblem', 'invalid');
    }
    await next();
  };
}

/**
 * The signed-in actor, or a 401. Until the password is changed, a user flagged must_change_password
 * gets 403 everywhere but the routes that pass allowPasswordChangePending.
 */
export function requireActor(c: Context<AppEnv>, options: { allowPasswordChangePending?: boolean } = {}): Actor {
  const user = c.get('user');
  if (!user) throw new DomainError(c.get('tokenProblem') ? 'sessionExpired' : 'notSignedIn', 401);
  if (user.must_change_password === 1 && !options.allowPasswordChangePending) throw new DomainError('mustChangePassword', 403);
  return toActor(user);
}

/** The client IP for throttling: the socket's address (behind a proxy, the proxy's). */
export function clientIp(c: Context<AppEnv>): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? 'local';
}
