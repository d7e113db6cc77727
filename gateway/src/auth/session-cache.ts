import type { DisplayCurrencyCode } from '@pod/domain';

/** What the session check needs from a session row and its user, kept between requests. */
export interface CachedSession {
  userId: string;
  lastSeenAt: number;
  expiresAt: number;
  user: {
    id: string;
    email: string;
    firstName: string;
    lastName: string;
    currency: DisplayCurrencyCode;
    isDemo: boolean;
  };
}

interface Entry {
  session: CachedSession;
  storedAt: number;
}

/** Taken before a read from PostgreSQL; a read that started before an eviction is not stored. */
export type LoadTicket = number;

/**
 * A short per-process memory of live sessions, so the session check does not read PostgreSQL
 * on every request. It stays authoritative because every revocation evicts (here and, through
 * SessionRevocationsService, on every other gateway) and because it answers only while `live`:
 * while this gateway cannot hear revocations it reads PostgreSQL every time. The TTL bounds
 * what a revocation lost in flight could leave behind (docs/adr/0017-sessions.md).
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every eviction: a read begun before it may hold what was just revoked. */
  private revision = 0;
  private live = false;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** False with a TTL of 0: every check reads PostgreSQL. */
  get configured(): boolean {
    return this.ttlMs > 0;
  }

  get enabled(): boolean {
    return this.live && this.ttlMs > 0;
  }

  /** Whether revocations are heard; going either way forgets everything (messages may have been missed). */
  setLive(live: boolean): void {
    this.live = live;
    this.flush();
  }

  /** The session, if read less than the TTL ago, belongs to `userId` and nothing evicted it since. */
  get(idHash: string, userId: string, now: number): CachedSession | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(idHash);
    if (!entry) return undefined;
    if (now - entry.storedAt >= this.ttlMs || now < entry.storedAt) {
      this.entries.delete(idHash);
      return undefined;
    }
    return entry.session.userId === userId ? entry.session : undefined;
  }

  beginLoad(): LoadTicket {
    return this.revision;
  }

  /** Keeps a session read from PostgreSQL, unless an eviction happened since its read began. */
  store(idHash: string, session: CachedSession, ticket: LoadTicket, now: number): void {
    if (!this.enabled || ticket !== this.revision) return;
    if (this.entries.size >= this.maxEntries && !this.entries.has(idHash)) {
      // Maps iterate in insertion order: the oldest entry goes first.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(idHash, { session, storedAt: now });
  }

  evictSession(idHash: string): void {
    this.revision += 1;
    this.entries.delete(idHash);
  }

  evictUser(userId: string): void {
    this.revision += 1;
    for (const [idHash, entry] of this.entries) if (entry.session.userId === userId) this.entries.delete(idHash);
  }

  flush(): void {
    this.revision += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
