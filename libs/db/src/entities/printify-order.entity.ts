import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * A Printify order as last synced. The payload names no currency: `currency` is the one the
 * account's amounts are read in. `line_cost_minor` and `line_shipping_minor` are the sums of
 * the lines' `cost` and `shipping_cost` as sent (whether cost is per unit is open, b.4).
 */
@Entity({ name: 'printify_order' })
@Index('printify_order_user_ordered_idx', ['userId', 'orderedAt'])
@Index('printify_order_shop_order_idx', ['userId', 'shopOrderId'])
export class PrintifyOrderEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'printify_order_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'printify_order_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'printify_order_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'order_id', type: 'text', primaryKeyConstraintName: 'printify_order_pkey' })
  orderId: string;

  @Column({ name: 'app_order_id', type: 'text', nullable: true })
  appOrderId: string | null;

  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'order_type', type: 'text', nullable: true })
  orderType: string | null;

  /** metadata.shop_order_id: for an Etsy-connected shop, the Etsy receipt id. */
  @Column({ name: 'shop_order_id', type: 'text', nullable: true })
  shopOrderId: string | null;

  @Column({ name: 'shop_order_label', type: 'text', nullable: true })
  shopOrderLabel: string | null;

  @Column({ name: 'buyer_name', type: 'text', nullable: true })
  buyerName: string | null;

  @Column({ type: 'text', nullable: true })
  zip: string | null;

  @Column({ type: 'text', nullable: true })
  country: string | null;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  @MinorUnitsColumn({ name: 'total_price_minor' })
  totalPriceMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_shipping_minor' })
  totalShippingMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_tax_minor' })
  totalTaxMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'line_cost_minor' })
  lineCostMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'line_shipping_minor' })
  lineShippingMinor: MinorUnits;

  @Column({ name: 'item_count', type: 'int' })
  itemCount: number;

  @Column({ name: 'is_reprint', type: 'boolean' })
  isReprint: boolean;

  @Column({ name: 'ordered_at', type: 'timestamptz' })
  orderedAt: Date;

  @Column({ name: 'sent_to_production_at', type: 'timestamptz', nullable: true })
  sentToProductionAt: Date | null;

  @Column({ name: 'fulfilled_at', type: 'timestamptz', nullable: true })
  fulfilledAt: Date | null;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'payload_hash', type: 'text' })
  payloadHash: string;

  /** When the fetch that wrote this version began: Printify sends no update time, so a later fetch wins. */
  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
