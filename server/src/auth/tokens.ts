import { createSecretKey, type KeyObject } from 'node:crypto';
import { TOKEN_LIFETIME } from '@fankurve/shared';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  sub: string;
  tv: number;
}

/** How many verified tokens are remembered (a club's devices; older ones are verified again). */
const VERIFIED_CACHE_SIZE = 5000;

/**
 * HS256 JWTs carrying the user id and token_version (a password change or deletion voids old tokens
 * through the user row, which the session checks on every request). A token's signature and expiry
 * do not change, so a verified token is remembered until it expires: the HMAC runs once per token,
 * not once per request.
 */
export class TokenService {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, TokenClaims & { expiresAt: number }>();

  constructor(secret: string) {
    this.key = createSecretKey(new TextEncoder().encode(secret));
  }

  sign(userId: string, tokenVersion: number): Promise<string> {
    return new SignJWT({ tv: tokenVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(TOKEN_LIFETIME)
      .sign(this.key);
  }

  async verify(token: string): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known && known.expiresAt > Date.now()) return { sub: known.sub, tv: known.tv };
    if (known) this.verified.delete(token);
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number' || typeof payload.exp !== 'number') return null;
      this.remember(token, { sub: payload.sub, tv: payload.tv, expiresAt: payload.exp * 1000 });
      return { sub: payload.sub, tv: payload.tv };
    } catch {
      return null;
    }
  }

  private remember(token: string, claims: TokenClaims & { expiresAt: number }): void {
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, claims);
  }
}
