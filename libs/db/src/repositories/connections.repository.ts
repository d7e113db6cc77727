import type { TokenCipher } from '@pod/crypto';
import type { Db } from './database-session';
import type { ConnectionStatus, Provider } from '@pod/contracts';

/** What may leave the data layer about a connection: never a token, plain or encrypted. */
export interface ConnectionSummary {
  id: string;
  provider: Provider;
  status: ConnectionStatus;
  externalAccountId: string | null;
  shopId: string | null;
  shopName: string | null;
  shopCurrency: string | null;
  shopCountry: string | null;
  salesChannel: string | null;
  syncFrom: string | null;
  accessTokenExpiresAt: Date | null;
  tokenExpiresAt: Date | null;
  lastSyncAt: Date | null;
  connectedAt: Date;
  updatedAt: Date;
}

export interface EtsyConnectionInput {
  userId: string;
  etsyUserId: string;
  shopId: string;
  shopName: string;
  shopCurrency: string | null;
  shopCountry: string | null;
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresAt: Date;
}

export interface PrintifyConnectionInput {
  userId: string;
  accountKey: string;
  shopId: string;
  shopTitle: string;
  salesChannel: string | null;
  /** YYYY-MM-DD or null (sync everything). */
  syncFrom: string | null;
  token: string;
  tokenExpiresAt: Date;
}

/** The AAD binding of a stored token: its owner, its provider and which token it is. */
export function tokenContext(userId: string, provider: Provider, purpose: 'access' | 'refresh') {
  return { userId, provider, purpose };
}

const SUMMARY_COLUMNS = `
  id, provider, status, external_account_id AS "externalAccountId", shop_id AS "shopId", shop_name AS "shopName",
  shop_currency AS "shopCurrency", shop_country AS "shopCountry", sales_channel AS "salesChannel",
  to_char(sync_from, 'YYYY-MM-DD') AS "syncFrom", access_token_expires_at AS "accessTokenExpiresAt",
  token_expires_at AS "tokenExpiresAt", last_sync_at AS "lastSyncAt", connected_at AS "connectedAt", updated_at AS "updatedAt"`;

/**
 * Every query on provider_connection, each scoped by the owner's user id. Tokens go in
 * encrypted and come out only through the read*Token methods, decrypted for a caller that is
 * about to call the provider.
 */
export class ConnectionsRepository {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
  ) {}

  async listForUser(userId: string): Promise<ConnectionSummary[]> {
    return this.db.query(`SELECT ${SUMMARY_COLUMNS} FROM provider_connection WHERE user_id = $1 ORDER BY provider`, [userId]);
  }

  /** Creates or replaces the user's Etsy connection (a reconnect starts afresh: status connected). */
  async saveEtsy(input: EtsyConnectionInput): Promise<ConnectionSummary> {
    const access = this.cipher.encrypt(input.accessToken, tokenContext(input.userId, 'etsy', 'access'));
    const refresh = this.cipher.encrypt(input.refreshToken, tokenContext(input.userId, 'etsy', 'refresh'));
    return this.upsert(input.userId, 'etsy', {
      external_account_id: input.etsyUserId,
      shop_id: input.shopId,
      shop_name: input.shopName,
      shop_currency: input.shopCurrency,
      shop_country: input.shopCountry,
      sales_channel: null,
      sync_from: null,
      access_token_enc: access,
      refresh_token_enc: refresh,
      access_token_expires_at: input.accessTokenExpiresAt,
      token_expires_at: null,
    });
  }

  async savePrintify(input: PrintifyConnectionInput): Promise<ConnectionSummary> {
    const access = this.cipher.encrypt(input.token, tokenContext(input.userId, 'printify', 'access'));
    return this.upsert(input.userId, 'printify', {
      external_account_id: input.accountKey,
      shop_id: input.shopId,
      shop_name: input.shopTitle,
      shop_currency: null,
      shop_country: null,
      sales_channel: input.salesChannel,
      sync_from: input.syncFrom,
      access_token_enc: access,
      refresh_token_enc: null,
      access_token_expires_at: null,
      token_expires_at: input.tokenExpiresAt,
    });
  }

  /** Deletes the connection and its tokens; true when there was one. */
  async remove(userId: string, provider: Provider): Promise<boolean> {
    const [, count] = (await this.db.query(`DELETE FROM provider_connection WHERE user_id = $1 AND provider = $2`, [
      userId,
      provider,
    ])) as [unknown, number];
    return count > 0;
  }

  /** Deletes every connection of the user (and any pending Etsy authorization). */
  async removeAll(userId: string): Promise<number> {
    return this.db.transaction(async (manager) => {
      await manager.query(`DELETE FROM oauth_state WHERE user_id = $1`, [userId]);
      const [, count] = (await manager.query(`DELETE FROM provider_connection WHERE user_id = $1`, [userId])) as [unknown, number];
      return count;
    });
  }

  async markStatus(userId: string, provider: Provider, status: ConnectionStatus): Promise<void> {
    await this.db.query(
      `UPDATE provider_connection SET status = $3, updated_at = now() WHERE user_id = $1 AND provider = $2 AND status <> $3`,
      [userId, provider, status],
    );
  }

  /** The decrypted Printify token of a connected account, or null when there is none. */
  async readPrintifyToken(userId: string): Promise<{ connection: ConnectionSummary; token: string } | null> {
    const rows: Array<ConnectionSummary & { accessTokenEnc: string }> = await this.db.query(
      `SELECT ${SUMMARY_COLUMNS}, access_token_enc AS "accessTokenEnc" FROM provider_connection WHERE user_id = $1 AND provider = 'printify'`,
      [userId],
    );
    const row = rows[0];
    if (!row) return null;
    const { accessTokenEnc, ...connection } = row;
    return { connection, token: this.cipher.decrypt(accessTokenEnc, tokenContext(userId, 'printify', 'access')) };
  }

  private async upsert(userId: string, provider: Provider, values: Record<string, unknown>) {
    const columns = Object.keys(values);
    const params = [userId, provider, this.cipher.currentVersion, ...Object.values(values)];
    const placeholders = columns.map((_, index) => `$${index + 4}`);
    const rows: ConnectionSummary[] = await this.db.query(
      `INSERT INTO provider_connection (user_id, provider, key_version, status, ${columns.join(', ')})
       VALUES ($1, $2, $3, 'connected', ${placeholders.join(', ')})
       ON CONFLICT (user_id, provider) DO UPDATE SET
         key_version = EXCLUDED.key_version, status = 'connected',
         ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
         token_version = provider_connection.token_version + 1,
         -- a refresh of the replaced tokens must neither block the new ones nor store over them
         refresh_lease_id = NULL, refresh_lease_until = NULL,
         last_sync_at = CASE WHEN provider_connection.shop_id IS DISTINCT FROM EXCLUDED.shop_id THEN NULL ELSE provider_connection.last_sync_at END,
         connected_at = now(), updated_at = now()
       RETURNING ${SUMMARY_COLUMNS}`,
      params,
    );
    return rows[0];
  }
}
