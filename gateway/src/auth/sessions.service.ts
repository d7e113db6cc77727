import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SessionsRepository, UsersRepository } from '@pod/db';
import type { SignedInUser } from './signed-in-user';

/** NIST SP 800-63B AAL1: re-authenticate at least every 30 days; we also end idle sessions after 24 h. */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
export const SESSION_IDLE_SECONDS = 24 * 3600;
/** Write lastSeenAt at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

export interface JwtClaims {
  sub: string;
  sid: string;
}

export const hashSessionId = (sid: string): string => createHash('sha256').update(sid).digest('base64url');

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly jwt: JwtService,
  ) {}

  /** A new session (new random id on every sign-in) and the JWT that names it. */
  async start(userId: string, now = new Date()): Promise<{ jwt: string; maxAgeSeconds: number }> {
    const sid = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_SECONDS * 1000);
    await this.sessions.insert({ idHash: hashSessionId(sid), userId, lastSeenAt: now, expiresAt });
    const claims: JwtClaims = { sub: userId, sid };
    const jwt = await this.jwt.signAsync(claims, { expiresIn: SESSION_ABSOLUTE_SECONDS });
    return { jwt, maxAgeSeconds: SESSION_ABSOLUTE_SECONDS };
  }

  /** The signed-in user behind a verified JWT, or null when its session is gone or expired. */
  async resolve(claims: JwtClaims, now = new Date()): Promise<SignedInUser | null> {
    if (typeof claims?.sid !== 'string' || typeof claims?.sub !== 'string') return null;
    const idHash = hashSessionId(claims.sid);
    const session = await this.sessions.findWithUser(idHash, claims.sub);
    if (!session) return null;
    const idleLimit = session.lastSeenAt.getTime() + SESSION_IDLE_SECONDS * 1000;
    if (session.expiresAt.getTime() <= now.getTime() || idleLimit <= now.getTime()) {
      await this.sessions.delete(idHash);
      return null;
    }
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await this.sessions.touch(idHash, now);
    }
    const { user } = session;
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      currency: user.displayCurrency,
      isDemo: user.isDemo,
      sessionIdHash: idHash,
    };
  }

  /**
   * The signed-in user behind a session cookie's JWT, or null when it is invalid, expired or
   * its session has ended: for @Public() routes that still need to know the caller (the OAuth
   * callback, reached by a top-level navigation from Etsy).
   */
  async resolveJwt(jwt: string, now = new Date()): Promise<SignedInUser | null> {
    let claims: JwtClaims;
    try {
      claims = await this.jwt.verifyAsync<JwtClaims>(jwt, { algorithms: ['HS256'] });
    } catch {
      return null;
    }
    return this.resolve(claims, now);
  }

  async end(sessionIdHash: string): Promise<void> {
    await this.sessions.delete(sessionIdHash);
  }

  async endOthers(userId: string, keepSessionIdHash: string): Promise<void> {
    await this.sessions.deleteOthers(userId, keepSessionIdHash);
  }

  /** For logout with a cookie whose session may already be gone: ends it if the JWT is ours. */
  async endByJwt(jwt: string): Promise<void> {
    try {
      const claims = await this.jwt.verifyAsync<JwtClaims>(jwt);
      if (typeof claims.sid === 'string') await this.sessions.delete(hashSessionId(claims.sid));
    } catch {
      // An invalid or expired token names no session we could end.
    }
  }

  userExists(userId: string): Promise<boolean> {
    return this.users.exists(userId);
  }
}
