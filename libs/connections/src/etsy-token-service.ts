import type { DataSource } from 'typeorm';
import type { TokenCipher } from '@pod/crypto';
import { tokenContext } from './connections.repository';

/** The slice of the Etsy client the service needs: the refresh-token grant. */
export interface EtsyTokenRefresher {
  refreshTokens(refreshToken: string): Promise<{ accessToken: string; refreshToken: string; accessTokenExpiresAt: Date }>;
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
}

interface TokenRow {
  status: string;
  access_token_enc: string;
  refresh_token_enc: string | null;
  access_token_expires_at: Date | null;
  token_version: number;
}

type Outcome = { kind: 'token'; token: string } | { kind: 'reauth'; error?: unknown } | { kind: 'gone' };

/**
 * Etsy access tokens of stored connections, refreshed single-flight across every process:
 * one refresh per expiry, however many jobs and replicas notice it at once.
 *
 * A refresher locks the connection row (SELECT … FOR UPDATE) and re-reads it. If the stored
 * access token is no longer the one it saw fail (someone refreshed while it waited), it uses
 * that one. Otherwise it calls Etsy's refresh grant and stores the new access and refresh
 * tokens, encrypted, with token_version + 1, in the same transaction, before anyone uses them:
 * Etsy's refresh tokens rotate, so a new one that was not stored would be lost for good.
 * invalid_grant marks the connection reauth_required. Within one process, concurrent
 * refreshes of one connection also share a single promise (one DB connection waits, not ten).
 */
export class EtsyTokenService {
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly now: () => Date;
  private readonly skewMs: number;

  constructor(private readonly deps: EtsyTokenServiceDeps) {
    this.now = deps.now ?? (() => new Date());
    this.skewMs = deps.expirySkewMs ?? 60_000;
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
    const rows: TokenRow[] = await this.deps.dataSource.query(
      `SELECT status, access_token_enc, refresh_token_enc, access_token_expires_at, token_version
         FROM provider_connection WHERE id = $1 AND user_id = $2 AND provider = 'etsy'`,
      [connectionId, userId],
    );
    const row = rows[0];
    if (!row) throw this.deps.reauthRequired('The Etsy connection no longer exists.');
    if (row.status !== 'connected') throw this.deps.reauthRequired('The Etsy connection needs to be reconnected.');
    const current = this.decryptOrNull(userId, row.access_token_enc, 'access');
    if (current !== null && !this.isExpired(row.access_token_expires_at)) return current;
    return this.refresh(userId, connectionId, current);
  }

  /** Refreshes unless someone already replaced `seen` (the token that failed or expired). */
  refresh(userId: string, connectionId: string, seen: string | null): Promise<string> {
    const running = this.inflight.get(connectionId);
    if (running) return running;
    const flight = this.refreshLocked(userId, connectionId, seen).finally(() => this.inflight.delete(connectionId));
    this.inflight.set(connectionId, flight);
    return flight;
  }

  private async refreshLocked(userId: string, connectionId: string, seen: string | null): Promise<string> {
    const outcome = await this.deps.dataSource.transaction(async (manager): Promise<Outcome> => {
      const rows: TokenRow[] = await manager.query(
        `SELECT status, access_token_enc, refresh_token_enc, access_token_expires_at, token_version
           FROM provider_connection WHERE id = $1 AND user_id = $2 AND provider = 'etsy' FOR UPDATE`,
        [connectionId, userId],
      );
      const row = rows[0];
      if (!row) return { kind: 'gone' };
      if (row.status !== 'connected') return { kind: 'reauth' };
      const current = this.decryptOrNull(userId, row.access_token_enc, 'access');
      if (current !== null && current !== seen && !this.isExpired(row.access_token_expires_at)) {
        return { kind: 'token', token: current };
      }
      const refreshToken = row.refresh_token_enc ? this.decryptOrNull(userId, row.refresh_token_enc, 'refresh') : null;
      const markReauth = () =>
        manager.query(`UPDATE provider_connection SET status = 'reauth_required', updated_at = now() WHERE id = $1 AND user_id = $2`, [
          connectionId,
          userId,
        ]);
      if (refreshToken === null) {
        await markReauth();
        return { kind: 'reauth' };
      }
      let fresh: Awaited<ReturnType<EtsyTokenRefresher['refreshTokens']>>;
      try {
        fresh = await this.deps.refresher.refreshTokens(refreshToken);
      } catch (error) {
        if (!this.deps.isReauthRequired(error)) throw error;
        await markReauth();
        return { kind: 'reauth', error };
      }
      const updated = (await manager.query(
        `UPDATE provider_connection
            SET access_token_enc = $4, refresh_token_enc = $5, access_token_expires_at = $6, key_version = $7,
                token_version = token_version + 1, updated_at = now()
          WHERE id = $1 AND user_id = $2 AND token_version = $3`,
        [
          connectionId,
          userId,
          row.token_version,
          this.deps.cipher.encrypt(fresh.accessToken, tokenContext(userId, 'etsy', 'access')),
          this.deps.cipher.encrypt(fresh.refreshToken, tokenContext(userId, 'etsy', 'refresh')),
          fresh.accessTokenExpiresAt,
          this.deps.cipher.currentVersion,
        ],
      )) as [unknown, number];
      // We hold the row lock, so the version cannot have moved; refuse to return an unstored token if it did.
      if (updated[1] !== 1) throw new Error('Etsy token refresh lost its compare-and-set');
      return { kind: 'token', token: fresh.accessToken };
    });
    switch (outcome.kind) {
      case 'token':
        if (outcome.token !== seen) this.deps.logger?.info({ event: 'etsy.token_refreshed', userId, connectionId }, 'Etsy access token ready');
        return outcome.token;
      case 'reauth':
        this.deps.logger?.warn({ event: 'etsy.reauth_required', userId, connectionId }, 'Etsy connection needs reconnecting');
        throw outcome.error ?? this.deps.reauthRequired('The Etsy connection needs to be reconnected.');
      case 'gone':
        throw this.deps.reauthRequired('The Etsy connection no longer exists.');
    }
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
