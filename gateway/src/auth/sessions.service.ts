import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SessionsRepository, UsersRepository } from '@pod/db';
import type { CachedSession } from './session-cache';
import { SessionRevocationsService } from './session-revocations.service';
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
    private readonly revocations: SessionRevocationsService,
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

  /**
   * The signed-in user behind a verified JWT, or null when its session is gone or expired.
   * Reads the session row at most once per SESSION_CACHE_TTL_MS on this gateway (see
   * SessionCache); a database error propagates (the session guard answers 503, not 401).
   */
  async resolve(claims: JwtClaims, now = new Date()): Promise<SignedInUser | null> {
    if (typeof claims?.sid !== 'string' || typeof claims?.sub !== 'string') return null;
    const idHash = hashSessionId(claims.sid);
    const at = now.getTime();
    const session = this.revocations.cache.get(idHash, claims.sub, at) ?? (await this.load(idHash, claims.sub, at));
    if (!session) return null;
    if (session.expiresAt <= at || session.lastSeenAt + SESSION_IDLE_SECONDS * 1000 <= at) {
      await this.sessions.delete(idHash);
      // Every gateway judges expiry from the same row; the eviction only tidies up.
      this.revocations.cache.evictSession(idHash);
      return null;
    }
    if (at - session.lastSeenAt > TOUCH_INTERVAL_MS) {
      await this.sessions.touch(idHash, now);
      session.lastSeenAt = at;
    }
    return { ...session.user, sessionIdHash: idHash };
  }

  private async load(idHash: string, userId: string, at: number): Promise<CachedSession | null> {
    const ticket = this.revocations.cache.beginLoad();
    const row = await this.sessions.findWithUser(idHash, userId);
    if (!row) return null;
    const { user } = row;
    const session: CachedSession = {
      userId: user.id,
      lastSeenAt: row.lastSeenAt.getTime(),
      expiresAt: row.expiresAt.getTime(),
      user: {
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        currency: user.displayCurrency,
        isDemo: user.isDemo,
      },
    };
    this.revocations.cache.store(idHash, session, ticket, at);
    return session;
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

  /** Ends one session here and, through Redis, on every gateway's cache. */
  async end(sessionIdHash: string): Promise<void> {
    await this.sessions.delete(sessionIdHash);
    await this.revocations.revokeSession(sessionIdHash);
  }

  async endOthers(userId: string, keepSessionIdHash: string): Promise<void> {
    await this.sessions.deleteOthers(userId, keepSessionIdHash);
    // The kept session is read again too: one extra read, and no per-session list to keep.
    await this.revocations.revokeUser(userId);
  }

  /** The user's name or settings changed: every gateway reads them again at the next request. */
  async userChanged(userId: string): Promise<void> {
    await this.revocations.revokeUser(userId);
  }

  /** Accounts were removed in bulk (the demo sweep): every gateway forgets every session it kept. */
  async accountsRemoved(): Promise<void> {
    await this.revocations.revokeAll();
  }

  /** For logout with a cookie whose session may already be gone: ends it if the JWT is ours. */
  async endByJwt(jwt: string): Promise<void> {
    let claims: JwtClaims;
    try {
      claims = await this.jwt.verifyAsync<JwtClaims>(jwt);
    } catch {
      return; // An invalid or expired token names no session we could end.
    }
    if (typeof claims.sid === 'string') await this.end(hashSessionId(claims.sid));
  }

  userExists(userId: string): Promise<boolean> {
    return this.users.exists(userId);
  }
}
