import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import type { ConnectionStatus, Provider } from '@pod/contracts';
import { UserEntity } from './user.entity';

export type WebhookStatus = 'pending' | 'registered' | 'failed';

/**
 * A seller's Etsy shop or Printify account, one per provider and user. Tokens are stored
 * only encrypted (libs/crypto TokenCipher, bound to user_id and provider); `tokenVersion`
 * counts refreshes so that concurrent refreshers can tell someone else already refreshed.
 */
@Entity({ name: 'provider_connection' })
@Unique('provider_connection_user_provider_key', ['userId', 'provider'])
@Check('provider_connection_provider_check', `provider IN ('etsy', 'printify')`)
@Check('provider_connection_status_check', `status IN ('connected', 'reauth_required', 'expired')`)
@Check('provider_connection_webhook_status_check', `webhook_status IN ('pending', 'registered', 'failed')`)
@Check('provider_connection_printify_cost_reading_check', `printify_cost_reading IN ('per_unit', 'per_line')`)
@Index('provider_connection_webhook_key_idx', ['webhookKey'], { unique: true })
@Index('provider_connection_shop_idx', ['provider', 'shopId'])
export class ProviderConnectionEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'provider_connection_user_id_fkey' })
  user?: UserEntity;

  @Column({ type: 'text' })
  provider: Provider;

  @Column({ type: 'text', default: 'connected' })
  status: ConnectionStatus;

  /** Etsy: the user id of whoever granted access. Printify: a key for the merchant account. */
  @Column({ name: 'external_account_id', type: 'text', nullable: true })
  externalAccountId: string | null;

  /** Etsy shop_id, or the chosen Printify shop id (both stored as text). */
  @Column({ name: 'shop_id', type: 'text', nullable: true })
  shopId: string | null;

  /** Etsy shop_name, or the Printify shop title. */
  @Column({ name: 'shop_name', type: 'text', nullable: true })
  shopName: string | null;

  @Column({ name: 'shop_currency', type: 'text', nullable: true })
  shopCurrency: string | null;

  @Column({ name: 'shop_country', type: 'text', nullable: true })
  shopCountry: string | null;

  /** Printify only: the shop's sales channel (e.g. "etsy", "disconnected"). */
  @Column({ name: 'sales_channel', type: 'text', nullable: true })
  salesChannel: string | null;

  /** Printify only: whether a line's `cost` is per unit or for the whole line (ADR 0010; the Settings page sets it). */
  @Column({ name: 'printify_cost_reading', type: 'text', default: 'per_unit' })
  printifyCostReading: 'per_unit' | 'per_line';

  /** Etsy only: the seller is VAT-registered (a profit setting, ADR 0026): VAT on Etsy's fees is reclaimed. */
  @Column({ name: 'vat_registered', type: 'boolean', default: false })
  vatRegistered: boolean;

  /** Printify only: sync orders from this date (null: all orders). YYYY-MM-DD. */
  @Column({ name: 'sync_from', type: 'date', nullable: true })
  syncFrom: string | null;

  @Column({ name: 'access_token_enc', type: 'text', select: false })
  accessTokenEnc: string;

  @Column({ name: 'refresh_token_enc', type: 'text', nullable: true, select: false })
  refreshTokenEnc: string | null;

  /** Etsy: when the access token stops working (1 hour after issue). */
  @Column({ name: 'access_token_expires_at', type: 'timestamptz', nullable: true })
  accessTokenExpiresAt: Date | null;

  /** Printify: the personal access token's (approximate) 1-year expiry. */
  @Column({ name: 'token_expires_at', type: 'timestamptz', nullable: true })
  tokenExpiresAt: Date | null;

  /** Bumped with every stored token change: compare-and-set for refreshes. */
  @Column({ name: 'token_version', type: 'int', default: 1 })
  tokenVersion: number;

  /** The key version the tokens are encrypted under (for key rotation). */
  @Column({ name: 'key_version', type: 'int' })
  keyVersion: number;

  /** Etsy only: the process refreshing the tokens right now (see EtsyTokenService), until refreshLeaseUntil. */
  @Column({ name: 'refresh_lease_id', type: 'uuid', nullable: true, select: false })
  refreshLeaseId: string | null;

  @Column({ name: 'refresh_lease_until', type: 'timestamptz', nullable: true, select: false })
  refreshLeaseUntil: Date | null;

  @Column({ name: 'last_sync_at', type: 'timestamptz', nullable: true })
  lastSyncAt: Date | null;

  /** Printify: the unguessable path key of this connection's webhook URL (/api/webhooks/printify/<key>). */
  @Column({ name: 'webhook_key', type: 'text', nullable: true })
  webhookKey: string | null;

  /** Printify: the secret its deliveries are signed with, encrypted like the tokens (purpose `webhook`). */
  @Column({ name: 'webhook_secret_enc', type: 'text', nullable: true, select: false })
  webhookSecretEnc: string | null;

  /** Printify: `pending` while subscribing, `registered`, or `failed` (deliveries then do not come; syncs still run). Null: webhooks off. */
  @Column({ name: 'webhook_status', type: 'text', nullable: true })
  webhookStatus: WebhookStatus | null;

  @CreateDateColumn({ name: 'connected_at', type: 'timestamptz' })
  connectedAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
