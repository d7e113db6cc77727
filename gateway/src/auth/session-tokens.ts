import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '@pod/config';
import { sessionCookieName } from './session-cookie';
import type { JwtClaims } from './sessions.service';

/**
 * The verified claims of a request's session cookie, verified once per request: the per-user
 * share (user-turns.ts, before anything else) and the session guard (after routing) read the
 * same result, so the user a request waits in line as is the user it runs as, and the HMAC,
 * the base64 and the JSON of the token are paid once (they were twice, with passport-jwt in the
 * guard). Signature (HS256 only) and expiry are checked; the session row is the guard's concern.
 */
@Injectable()
export class SessionTokens {
  private readonly verified = new WeakMap<FastifyRequest, JwtClaims | null>();
  private readonly cookieName: string;

  constructor(
    config: AppConfig,
    private readonly jwt: JwtService,
  ) {
    this.cookieName = sessionCookieName(config);
  }

  /** The claims of a session cookie whose signature and expiry check out, else null (no cookie, a bad token). */
  claimsOf(request: FastifyRequest): JwtClaims | null {
    const known = this.verified.get(request);
    if (known !== undefined) return known;
    const claims = this.verify(request.cookies?.[this.cookieName]);
    this.verified.set(request, claims);
    return claims;
  }

  private verify(token: string | undefined): JwtClaims | null {
    if (!token) return null;
    try {
      const claims = this.jwt.verify<Partial<JwtClaims>>(token, { algorithms: ['HS256'] });
      return typeof claims.sub === 'string' && typeof claims.sid === 'string'
        ? { sub: claims.sub, sid: claims.sid }
        : null;
    } catch {
      return null;
    }
  }
}
