import { TOKEN_LIFETIME } from '@fankurve/shared';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  sub: string;
  tv: number;
}

/** HS256 JWTs carrying the user id and token_version (a password change or deletion voids old tokens). */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
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
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null;
      return { sub: payload.sub, tv: payload.tv };
    } catch {
      return null;
    }
  }
}
