import type { Context, MiddlewareHandler } from 'hono';
import { toActor } from '../domain/people/accounts.js';
import type { Actor } from '../domain/actor.js';
import { DomainError } from '../domain/errors.js';
import type { AppDeps, AppEnv } from './context.js';

/**
 * Loads the session and user of the bearer token on every request (both cached, dropped by the
 * domain events that end them), so an ended session, a deleted, declined or re-passworded user
 * loses access at once, and a pending user has none.
 */
export function loadSession(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('user', null);
    c.set('tokenProblem', null);
    c.set('sessionId', null);
    const header = c.req.header('authorization');
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
    if (token) {
      const claims = await deps.tokens.verify(token);
      const session = claims ? await deps.sessions.find(claims.sid, claims.sub) : undefined;
      const user = session ? await deps.users.find(claims!.sub) : undefined;
      if (session && user && user.token_version === claims!.tv && user.status === 'active') {
        c.set('user', user);
        c.set('sessionId', session.id);
        deps.sessions.touch(session);
      } else {
        c.set('tokenProblem', 'invalid');
      }
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

/**
 * The client's address for throttles: the socket's address, or with TRUST_PROXY=n the n-th address
 * from the right of X-Forwarded-For (each trusted proxy appends the address it saw; anything left
 * of that was written by the client and proves nothing).
 */
export function clientAddress(c: Context<AppEnv>, trustedProxies: number): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  const socket = incoming?.socket?.remoteAddress ?? 'local';
  if (trustedProxies <= 0) {
    if (c.req.header('x-forwarded-for') !== undefined) warnOfUntrustedProxy();
    return socket;
  }
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return forwarded[forwarded.length - trustedProxies] ?? forwarded[0] ?? socket;
}

let warnedOfUntrustedProxy = false;

/**
 * Once per process: a request carried X-Forwarded-For while TRUST_PROXY is unset. Behind a reverse
 * proxy every request comes from the proxy's address, so the throttles would count all members as
 * one client (docs/architecture.md, "Sessions, throttles and limits").
 */
function warnOfUntrustedProxy(): void {
  if (warnedOfUntrustedProxy) return;
  warnedOfUntrustedProxy = true;
  console.warn(
    'Requests carry X-Forwarded-For but TRUST_PROXY is not set: the server is likely behind a reverse proxy, ' +
      "so sign-in, registration and reset limits count everyone behind it as one address (the proxy's). " +
      'Set TRUST_PROXY to the number of proxies in front of the server (e.g. TRUST_PROXY=1).',
  );
}
