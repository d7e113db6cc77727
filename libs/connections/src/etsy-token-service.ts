import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { EtsyTokensRepository, tokenContext, type StoredEtsyTokens } from '@pod/db';
import type { TokenCipher } from '@pod/crypto';

/** The slice of the Etsy client the service needs: the refresh-token grant. */
export interface EtsyTokenRefresher {
  refreshTokens(
    refreshToken: string,
  ): Promise<{ accessToken: string; refreshToken: string; accessTokenExpiresAt: Date }>;
}

/** What the Etsy client asks of whoever holds a connection's tokens (the clients' `EtsyAuth`). */
export interface EtsyAccessTokens {
  readonly connectionKey: string;
  getAccessToken(): Promise<string>;
  refreshAfterUnauthorized(rejectedAccessToken: string): Promise<string>;
}

export interface TokenEventLogger {
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
}

export interface EtsyTokenServiceDeps {
  dataSource: DataSource;
  cipher: TokenCipher;
  refresher: EtsyTokenRefresher;
  /** Builds the error thrown when the seller must reconnect (the clients' ReauthRequiredError). */
  reauthRequired: (message: string) => Error;
  /** True for the refresher's "grant is gone" failure (invalid_grant). */
  isReauthRequired: (error: unknown) => boolean;
  logger?: TokenEventLogger;
  now?: () => Date;
  /** Refresh this long before the stored expiry (clock skew, request time). Default 60 s. */
  expirySkewMs?: number;
  /** How long a refresh lease lives unless renewed (renewed every third of it during the call). Default 30 s. */
  refreshLeaseMs?: number;
  /** How often a process waiting for someone else's refresh looks at the row again. Default 100 ms. */
  leasePollMs?: number;
}

type Outcome = { kind: 'token'; token: string } | { kind: 'reauth'; error?: unknown } | { kind: 'gone' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Etsy access tokens of stored connections, refreshed single-flight across every process:
 * one refresh per expiry, however many jobs and replicas notice it at once.
 *
 * A refresher takes the connection's refresh lease (a short UPDATE on the row: lease id and
 * expiry) instead of a row lock, so no transaction and no pooled connection is held while Etsy
 * answers — a hanging token endpoint cannot drain the pool. Under the lease it re-reads the
 * tokens: if the stored access token is no longer the one it saw fail (someone refreshed while
 * it waited), it uses that one. Otherwise it calls Etsy's refresh grant, renewing the lease
 * while the call runs, and stores the new access and refresh tokens, encrypted, with
 * token_version + 1 and the lease released, in one statement, before anyone uses them: Etsy's
 * refresh tokens rotate, so a new one that was not stored would be lost for good. invalid_grant
 * marks the connection reauth_required. Everyone else polls the row until the lease is gone,
 * then reads the rotated tokens; a crashed holder's lease simply expires. Within one process,
 * concurrent refreshes of one connection also share a single promise.
 */
export class EtsyTokenService {
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly now: () => Date;
  private readonly skewMs: number;
  private readonly tokens: EtsyTokensRepository;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(private readonly deps: EtsyTokenServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.skewMs = deps.expirySkewMs ?? 60_000;
    this.tokens = new EtsyTokensRepository(deps.dataSource);
    this.leaseMs = deps.refreshLeaseMs ?? 30_000;
    this.pollMs = deps.leasePollMs ?? 100;
  }

  /** The token source the Etsy client uses for one connection of one user. */
  forConnection(userId: string, connectionId: string): EtsyAccessTokens {
    return {
      connectionKey: connectionId,
      getAccessToken: () => this.getAccessToken(userId, connectionId),
      refreshAfterUnauthorized: (rejected: string) => this.refresh(userId, connectionId, rejected),
    };
  }

  async getAccessToken(userId: string, connectionId: string): Promise<string> {
    const row = await this.tokens.read(userId, connectionId);
    if (!row) throw this.deps.reauthRequired('The Etsy connection no longer exists.');
    if (row.status !== 'connected') throw this.deps.reauthRequired('The Etsy connection needs to be reconnected.');
    const current = this.decryptOrNull(userId, row.accessTokenEnc, 'access');
    if (current !== null && !this.isExpired(row.accessTokenExpiresAt)) return current;
    return this.refresh(userId, connectionId, current);
  }

  /** Refreshes unless someone already replaced `seen` (the token that failed or expired). */
  refresh(userId: string, connectionId: string, seen: string | null): Promise<string> {
    const running = this.inflight.get(connectionId);
    if (running) return running;
    const flight = this.refreshOnce(userId, connectionId, seen).finally(() => this.inflight.delete(connectionId));
    this.inflight.set(connectionId, flight);
    return flight;
  }

  private async refreshOnce(userId: string, connectionId: string, seen: string | null): Promise<string> {
    const outcome = await this.awaitLeaseOrToken(userId, connectionId, seen);
    switch (outcome.kind) {
      case 'token':
        if (outcome.token !== seen)
          this.deps.logger?.info({ event: 'etsy.token_refreshed', userId, connectionId }, 'Etsy access token ready');
        return outcome.token;
      case 'reauth':
        this.deps.logger?.warn(
          { event: 'etsy.reauth_required', userId, connectionId },
          'Etsy connection needs reconnecting',
        );
        throw outcome.error ?? this.deps.reauthRequired('The Etsy connection needs to be reconnected.');
      case 'gone':
        throw this.deps.reauthRequired('The Etsy connection no longer exists.');
    }
  }

  /** Polls until someone else's refresh landed, or we hold the lease and refreshed ourselves. */
  private async awaitLeaseOrToken(userId: string, connectionId: string, seen: string | null): Promise<Outcome> {
    for (;;) {
      const row = await this.tokens.read(userId, connectionId);
      const settled = row ? this.settledOutcome(userId, row, seen) : { kind: 'gone' as const };
      if (settled) return settled;
      const leaseId = randomUUID();
      const leased = await this.tokens.takeRefreshLease(userId, connectionId, leaseId, this.leaseMs);
      if (leased) return this.refreshUnderLease(userId, connectionId, leaseId, leased, seen);
      await sleep(this.pollMs);
    }
  }

  /** The outcome the stored row already gives without a refresh, or null when one is needed. */
  private settledOutcome(userId: string, row: StoredEtsyTokens, seen: string | null): Outcome | null {
    if (row.status !== 'connected') return { kind: 'reauth' };
    const current = this.decryptOrNull(userId, row.accessTokenEnc, 'access');
    if (current !== null && current !== seen && !this.isExpired(row.accessTokenExpiresAt))
      return { kind: 'token', token: current };
    return null;
  }

  private async refreshUnderLease(
    userId: string,
    connectionId: string,
    leaseId: string,
    row: StoredEtsyTokens,
    seen: string | null,
  ): Promise<Outcome> {
    const release = () => this.tokens.releaseRefreshLease(userId, connectionId, leaseId);
    // Someone may have stored new tokens between our read and our lease.
    const settled = this.settledOutcome(userId, row, seen);
    if (settled) {
      await release();
      return settled;
    }
    const refreshToken = row.refreshTokenEnc ? this.decryptOrNull(userId, row.refreshTokenEnc, 'refresh') : null;
    if (refreshToken === null) {
      await this.tokens.markReauthRequired(userId, connectionId);
      return { kind: 'reauth' };
    }
    let fresh: Awaited<ReturnType<EtsyTokenRefresher['refreshTokens']>>;
    try {
      fresh = await this.holdingLease(this.deps.refresher.refreshTokens(refreshToken), () =>
        this.tokens.renewRefreshLease(userId, connectionId, leaseId, this.leaseMs),
      );
    } catch (error) {
      if (!this.deps.isReauthRequired(error)) {
        await release().catch(() => undefined);
        throw error;
      }
      await this.tokens.markReauthRequired(userId, connectionId);
      return { kind: 'reauth', error };
    }
    const stored = await this.tokens.storeRotated(userId, connectionId, leaseId, row.tokenVersion, {
      accessTokenEnc: this.deps.cipher.encrypt(fresh.accessToken, tokenContext(userId, 'etsy', 'access')),
      refreshTokenEnc: this.deps.cipher.encrypt(fresh.refreshToken, tokenContext(userId, 'etsy', 'refresh')),
      accessTokenExpiresAt: fresh.accessTokenExpiresAt,
      keyVersion: this.deps.cipher.currentVersion,
    });
    // Our lease expired under us (the process stalled longer than the lease) and someone else took over:
    // never hand out a token that is not stored.
    if (!stored) throw new Error('Etsy token refresh lost its lease before storing the new tokens');
    return { kind: 'token', token: fresh.accessToken };
  }

  /**
   * Waits for the call to Etsy, renewing the lease every third of its length while the call is
   * out, so a slow Etsy never lets a second refresher in. The renewal lives exactly as long as
   * the call: no timer outlives it.
   */
  private async holdingLease<T>(call: Promise<T>, renew: () => Promise<unknown>): Promise<T> {
    const renewEveryMs = Math.max(1, Math.floor(this.leaseMs / 3));
    while (!(await settlesWithin(call, renewEveryMs))) await renew().catch(() => undefined);
    return call;
  }

  private isExpired(expiresAt: Date | null): boolean {
    if (!expiresAt) return false;
    return new Date(expiresAt).getTime() - this.skewMs <= this.now().getTime();
  }

  /** A token we can no longer decrypt (APP_SECRET changed, row tampered with) means reconnecting. */
  private decryptOrNull(userId: string, stored: string, purpose: 'access' | 'refresh'): string | null {
    try {
      return this.deps.cipher.decrypt(stored, tokenContext(userId, 'etsy', purpose));
    } catch {
      return null;
    }
  }
}

/** True once the promise settles (either way), false if `ms` pass first; the timer is cleared either way. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    const settled = () => {
      clearTimeout(timer);
      resolve(true);
    };
    promise.then(settled, settled);
  });
}
