import { Not, type FindOptionsSelect } from 'typeorm';
import type { TokenCipher } from '@pod/crypto';
import { OAuthStateEntity } from '../entities/oauth-state.entity';
import { ProviderConnectionEntity, type WebhookStatus } from '../entities/provider-connection.entity';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
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
  /** Printify: its webhook subscriptions' state; null when webhooks are off (or for Etsy). */
  webhookStatus: WebhookStatus | null;
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

export type { WebhookStatus };

/** The AAD binding of a stored token: its owner, its provider and which token it is (or the webhook signing secret). */
export function tokenContext(userId: string, provider: Provider, purpose: 'access' | 'refresh' | 'webhook') {
  return { userId, provider, purpose };
}

/** Whom a Printify delivery to /api/webhooks/printify/<key> is for, with the secret to check it. */
export interface PrintifyWebhookTarget {
  connectionId: string;
  userId: string;
  status: ConnectionStatus;
  shopId: string | null;
  /** Decrypted; null when the connection has none (webhooks were never set up). */
  secret: string | null;
}

export interface PrintifyWebhookSetup {
  key: string;
  secret: string;
  status: WebhookStatus;
}

const SUMMARY_COLUMNS = `
  id, provider, status, external_account_id AS "externalAccountId", shop_id AS "shopId", shop_name AS "shopName",
  shop_currency AS "shopCurrency", shop_country AS "shopCountry", sales_channel AS "salesChannel",
  to_char(sync_from, 'YYYY-MM-DD') AS "syncFrom", access_token_expires_at AS "accessTokenExpiresAt",
  token_expires_at AS "tokenExpiresAt", last_sync_at AS "lastSyncAt", webhook_status AS "webhookStatus", connected_at AS "connectedAt",
  updated_at AS "updatedAt"`;

const SUMMARY_FIELDS = {
  id: true,
  provider: true,
  status: true,
  externalAccountId: true,
  shopId: true,
  shopName: true,
  shopCurrency: true,
  shopCountry: true,
  salesChannel: true,
  syncFrom: true,
  accessTokenExpiresAt: true,
  tokenExpiresAt: true,
  lastSyncAt: true,
  webhookStatus: true,
  connectedAt: true,
  updatedAt: true,
} satisfies FindOptionsSelect<ProviderConnectionEntity>;

/** Copies the summary fields only: whatever else the entity holds stays in the data layer. */
function toSummary(row: ProviderConnectionEntity): ConnectionSummary {
  return {
    id: row.id,
    provider: row.provider,
    status: row.status,
    externalAccountId: row.externalAccountId,
    shopId: row.shopId,
    shopName: row.shopName,
    shopCurrency: row.shopCurrency,
    shopCountry: row.shopCountry,
    salesChannel: row.salesChannel,
    syncFrom: row.syncFrom,
    accessTokenExpiresAt: row.accessTokenExpiresAt,
    tokenExpiresAt: row.tokenExpiresAt,
    lastSyncAt: row.lastSyncAt,
    webhookStatus: row.webhookStatus,
    connectedAt: row.connectedAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Every query on provider_connection, each scoped by the owner's user id and run in a
 * transaction scoped to them (row-level security); the three lookups across users (the
 * scheduler's shops, the two webhook intakes) are SECURITY DEFINER functions. Tokens go in
 * encrypted and come out only through the read*Token methods, decrypted for a caller that is
 * about to call the provider.
 */
export class ConnectionsRepository {
  constructor(
    private readonly db: Db,
    private readonly cipher: TokenCipher,
  ) {}

  async listForUser(userId: string): Promise<ConnectionSummary[]> {
    const rows = await inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(ProviderConnectionEntity)
        .find({ where: { userId }, select: SUMMARY_FIELDS, order: { provider: 'ASC' } }),
    );
    return rows.map(toSummary);
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

  /** Makes another shop of the connected Printify account the one synced (same token, same account). */
  async choosePrintifyShop(
    userId: string,
    shopId: string,
    shopTitle: string,
    salesChannel: string | null,
  ): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(ProviderConnectionEntity)
        .update({ userId, provider: 'printify' }, { shopId, shopName: shopTitle, salesChannel, lastSyncAt: null }),
    );
  }

  /**
   * Connected connections of every user, in pages ordered by id (for the scheduled resync).
   * Only what a run needs: owner, provider, shop.
   */
  async listConnectedAfter(
    afterId: string | null,
    limit: number,
  ): Promise<{ id: string; userId: string; provider: Provider; shopId: string }[]> {
    return this.db.query(
      `SELECT id, user_id AS "userId", provider, shop_id AS "shopId" FROM connected_shops_after($1::uuid, $2)`,
      [afterId, limit],
    );
  }

  /** Deletes the connection and its tokens; true when there was one. */
  async remove(userId: string, provider: Provider): Promise<boolean> {
    const { affected } = await inTenantScope(this.db, userId, (db) =>
      db.getRepository(ProviderConnectionEntity).delete({ userId, provider }),
    );
    return (affected ?? 0) > 0;
  }

  /** Deletes every connection of the user (and any pending Etsy authorization). */
  async removeAll(userId: string): Promise<number> {
    return inTenantScope(this.db, userId, async (manager) => {
      await manager.getRepository(OAuthStateEntity).delete({ userId });
      const { affected } = await manager.getRepository(ProviderConnectionEntity).delete({ userId });
      return affected ?? 0;
    });
  }

  async markStatus(userId: string, provider: Provider, status: ConnectionStatus): Promise<void> {
    // updated_at moves with it (an @UpdateDateColumn).
    await inTenantScope(this.db, userId, (db) =>
      db.getRepository(ProviderConnectionEntity).update({ userId, provider, status: Not(status) }, { status }),
    );
  }

  /** The decrypted Printify token of a connected account, or null when there is none. */
  async readPrintifyToken(userId: string): Promise<{ connection: ConnectionSummary; token: string } | null> {
    const row = await inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(ProviderConnectionEntity)
        .findOne({ where: { userId, provider: 'printify' }, select: { ...SUMMARY_FIELDS, accessTokenEnc: true } }),
    );
    if (!row) return null;
    return {
      connection: toSummary(row),
      token: this.cipher.decrypt(row.accessTokenEnc, tokenContext(userId, 'printify', 'access')),
    };
  }

  /**
   * The connection a Printify webhook key names (any user's: the unguessable key is what
   * identifies it, the signature is what proves the delivery), or null. The owner comes from
   * printify_webhook_owner (SECURITY DEFINER); the row is then read scoped to them.
   */
  async findPrintifyWebhookTarget(key: string): Promise<PrintifyWebhookTarget | null> {
    const [owner]: { userId: string | null }[] = await this.db.query(`SELECT printify_webhook_owner($1) AS "userId"`, [
      key,
    ]);
    const userId = owner?.userId;
    if (!userId) return null;
    const row = await inTenantScope(this.db, userId, (db) =>
      db.getRepository(ProviderConnectionEntity).findOne({
        where: { userId, webhookKey: key, provider: 'printify' },
        select: { id: true, userId: true, status: true, shopId: true, webhookSecretEnc: true },
      }),
    );
    if (!row) return null;
    const secret = row.webhookSecretEnc
      ? this.cipher.decrypt(row.webhookSecretEnc, tokenContext(row.userId, 'printify', 'webhook'))
      : null;
    return { connectionId: row.id, userId: row.userId, status: row.status, shopId: row.shopId, secret };
  }

  /** The user's Printify webhook key and status (null when not connected). */
  async readPrintifyWebhook(userId: string): Promise<{ key: string | null; status: WebhookStatus | null } | null> {
    const row = await inTenantScope(this.db, userId, (db) =>
      db.getRepository(ProviderConnectionEntity).findOne({
        where: { userId, provider: 'printify' },
        select: { id: true, webhookKey: true, webhookStatus: true },
      }),
    );
    return row ? { key: row.webhookKey, status: row.webhookStatus } : null;
  }

  /** Stores a new webhook key and secret (encrypted) on the user's Printify connection; false when there is none. */
  async setPrintifyWebhook(userId: string, setup: PrintifyWebhookSetup): Promise<boolean> {
    const webhookSecretEnc = this.cipher.encrypt(setup.secret, tokenContext(userId, 'printify', 'webhook'));
    const { affected } = await inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(ProviderConnectionEntity)
        .update(
          { userId, provider: 'printify' },
          { webhookKey: setup.key, webhookSecretEnc, webhookStatus: setup.status },
        ),
    );
    return (affected ?? 0) > 0;
  }

  /** Moves the webhook status of the user's Printify connection, only while it still has `key` (a newer setup wins). */
  async markPrintifyWebhook(userId: string, key: string, status: WebhookStatus): Promise<boolean> {
    const { affected } = await inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(ProviderConnectionEntity)
        .update({ userId, provider: 'printify', webhookKey: key }, { webhookStatus: status }),
    );
    return (affected ?? 0) > 0;
  }

  /**
   * The connected Etsy connections of a shop (an Etsy delivery names only the shop). Usually one;
   * several users may have connected the same shop. Through etsy_connections_of_shop (SECURITY DEFINER).
   */
  listEtsyConnectionsOfShop(shopId: string): Promise<{ connectionId: string; userId: string }[]> {
    return this.db.query(
      `SELECT connection_id AS "connectionId", user_id AS "userId" FROM etsy_connections_of_shop($1)`,
      [shopId],
    );
  }

  private async upsert(userId: string, provider: Provider, values: Record<string, unknown>) {
    const columns = Object.keys(values);
    const params = [userId, provider, this.cipher.currentVersion, ...Object.values(values)];
    const placeholders = columns.map((_, index) => `$${index + 4}`);
    const rows: ConnectionSummary[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
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
      ),
    );
    return rows[0];
  }
}
