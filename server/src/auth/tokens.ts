import { createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { Commit } from '../db/store.js';
import { endsSessionsOf } from '../domain/domainEvents.js';

export interface TokenClaims {
  sub: string;
  tv: number;
  /** The session the token belongs to (docs/architecture.md, sessions). */
  sid: string;
}

/** How many verified tokens are remembered (a club's devices; older ones are verified again). */
const VERIFIED_CACHE_SIZE = 5000;

/**
 * HS256 JWTs carrying the user id, token_version and the session id. They carry no expiry of their
 * own: the session decides (ended by sign-out or a password change, or after 90 days unused), so a
 * device that was offline for weeks keeps working when it comes back. A token's signature does not
 * change, so a verified token is remembered: the HMAC runs once per token, not once per request.
 */
export class TokenService {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, TokenClaims & { expiresAt: number }>();

  constructor(secret: string) {
    this.key = createSecretKey(new TextEncoder().encode(secret));
  }

  sign(userId: string, tokenVersion: number, sessionId: string): Promise<string> {
    return new SignJWT({ tv: tokenVersion, sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known && known.expiresAt > Date.now()) return { sub: known.sub, tv: known.tv, sid: known.sid };
    if (known) this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number' || typeof payload.sid !== 'string') return null;
      const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : Number.POSITIVE_INFINITY;
      this.remember(token, { sub: payload.sub, tv: payload.tv, sid: payload.sid, expiresAt });
      return { sub: payload.sub, tv: payload.tv, sid: payload.sid };
    } catch {
      return null;
    }
  }

  /**
   * The commit-bus subscriber (local and remote commits): forgets the verified tokens of an ended
   * session or of a user whose sessions all ended. Not needed for safety (every request checks the
   * session and the user), it keeps ended tokens out of the cache.
   */
  readonly onCommit = (commit: Commit): void => {
    if (commit.missed) return this.verified.clear();
    const sessions = new Set<string>();
    const users = new Set<string>();
    for (const event of commit.events) {
      if (event.type === 'session.ended') sessions.add(event.sessionId);
      const user = endsSessionsOf(event);
      if (user) users.add(user);
    }
    if (sessions.size === 0 && users.size === 0) return;
    for (const [token, claims] of this.verified) {
      if (sessions.has(claims.sid) || users.has(claims.sub)) this.verified.delete(token);
    }
  };

  private remember(token: string, claims: TokenClaims & { expiresAt: number }): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
  }
}
