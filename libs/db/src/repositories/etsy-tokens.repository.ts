import { ProviderConnectionEntity } from '../entities/provider-connection.entity';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';

/** The stored Etsy token state of one connection (tokens still encrypted). */
export interface StoredEtsyTokens {
  status: string;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  accessTokenExpiresAt: Date | null;
  tokenVersion: number;
}

export interface RotatedEtsyTokens {
  accessTokenEnc: string;
  refreshTokenEnc: string;
  accessTokenExpiresAt: Date;
  keyVersion: number;
}

const TOKEN_COLUMNS = `status, access_token_enc AS "accessTokenEnc", refresh_token_enc AS "refreshTokenEnc",
  access_token_expires_at AS "accessTokenExpiresAt", token_version AS "tokenVersion"`;

/** UPDATE … RETURNING through TypeORM's pg driver answers [rows, affectedCount]. */
type UpdateResult<T> = [T[], number];

/**
 * The Etsy token columns of provider_connection and the refresh lease that makes a refresh
 * single-flight across processes. Every statement is one short transaction scoped to the
 * owner (row-level security): nothing here holds a connection while the caller talks to Etsy.
 * Lease times are the database's clock, so processes with skewed clocks agree.
 */
export class EtsyTokensRepository {
  constructor(private readonly db: Db) {}

  async read(userId: string, connectionId: string): Promise<StoredEtsyTokens | null> {
    const row = await inTenantScope(this.db, userId, (db) =>
      db.getRepository(ProviderConnectionEntity).findOne({
        where: { id: connectionId, userId, provider: 'etsy' },
        select: {
          id: true,
          status: true,
          accessTokenEnc: true,
          refreshTokenEnc: true,
          accessTokenExpiresAt: true,
          tokenVersion: true,
        },
      }),
    );
    if (!row) return null;
    const { status, accessTokenEnc, refreshTokenEnc, accessTokenExpiresAt, tokenVersion } = row;
    return { status, accessTokenEnc, refreshTokenEnc, accessTokenExpiresAt, tokenVersion };
  }

  /**
   * Takes the refresh lease when nobody holds a live one, and returns the tokens as they are
   * now (under the lease); null when the connection is gone or someone else holds the lease.
   */
  async takeRefreshLease(
    userId: string,
    connectionId: string,
    leaseId: string,
    leaseMs: number,
  ): Promise<StoredEtsyTokens | null> {
    const [rows] = (await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE provider_connection
          SET refresh_lease_id = $3, refresh_lease_until = now() + $4 * interval '1 millisecond'
        WHERE id = $1 AND user_id = $2 AND provider = 'etsy'
          AND (refresh_lease_until IS NULL OR refresh_lease_until <= now())
        RETURNING ${TOKEN_COLUMNS}`,
        [connectionId, userId, leaseId, leaseMs],
      ),
    )) as UpdateResult<StoredEtsyTokens>;
    return rows[0] ?? null;
  }

  /** Extends a lease we still hold; false when it was lost (expired and taken by someone else). */
  async renewRefreshLease(userId: string, connectionId: string, leaseId: string, leaseMs: number): Promise<boolean> {
    const [, count] = (await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE provider_connection SET refresh_lease_until = now() + $4 * interval '1 millisecond'
        WHERE id = $1 AND user_id = $2 AND refresh_lease_id = $3`,
        [connectionId, userId, leaseId, leaseMs],
      ),
    )) as UpdateResult<never>;
    return count === 1;
  }

  async releaseRefreshLease(userId: string, connectionId: string, leaseId: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE provider_connection SET refresh_lease_id = NULL, refresh_lease_until = NULL
        WHERE id = $1 AND user_id = $2 AND refresh_lease_id = $3`,
        [connectionId, userId, leaseId],
      ),
    );
  }

  /**
   * Stores rotated tokens and releases the lease in one statement, only while we hold the lease
   * and nobody changed the tokens since `tokenVersion`; false otherwise (nothing written).
   */
  async storeRotated(
    userId: string,
    connectionId: string,
    leaseId: string,
    tokenVersion: number,
    tokens: RotatedEtsyTokens,
  ): Promise<boolean> {
    const [, count] = (await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE provider_connection
          SET access_token_enc = $5, refresh_token_enc = $6, access_token_expires_at = $7, key_version = $8,
              token_version = token_version + 1, refresh_lease_id = NULL, refresh_lease_until = NULL, updated_at = now()
        WHERE id = $1 AND user_id = $2 AND refresh_lease_id = $3 AND token_version = $4`,
        [
          connectionId,
          userId,
          leaseId,
          tokenVersion,
          tokens.accessTokenEnc,
          tokens.refreshTokenEnc,
          tokens.accessTokenExpiresAt,
          tokens.keyVersion,
        ],
      ),
    )) as UpdateResult<never>;
    return count === 1;
  }

  /** The grant is gone: the seller must connect again. Releases the lease (ours or a stale one). */
  async markReauthRequired(userId: string, connectionId: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE provider_connection SET status = 'reauth_required', refresh_lease_id = NULL, refresh_lease_until = NULL, updated_at = now()
        WHERE id = $1 AND user_id = $2`,
        [connectionId, userId],
      ),
    );
  }
}
