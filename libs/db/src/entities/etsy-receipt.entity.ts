import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/** An Etsy receipt (order) as last synced; amounts in the shop currency (`currency`). */
@Entity({ name: 'etsy_receipt' })
@Index('etsy_receipt_user_ordered_idx', ['userId', 'orderedAt'])
export class EtsyReceiptEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'etsy_receipt_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'etsy_receipt_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'etsy_receipt_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'receipt_id', type: 'text', primaryKeyConstraintName: 'etsy_receipt_pkey' })
  receiptId: string;

  /** Lower-cased ("paid", "completed", "fully refunded"…). */
  @Column({ type: 'text' })
  status: string;

  @Column({ name: 'is_paid', type: 'boolean' })
  isPaid: boolean;

  @Column({ name: 'is_shipped', type: 'boolean' })
  isShipped: boolean;

  @Column({ name: 'buyer_name', type: 'text', nullable: true })
  buyerName: string | null;

  @Column({ name: 'buyer_user_id', type: 'text', nullable: true })
  buyerUserId: string | null;

  @Column({ type: 'text', nullable: true })
  zip: string | null;

  @Column({ name: 'country_iso', type: 'text', nullable: true })
  countryIso: string | null;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  @MinorUnitsColumn({ name: 'grandtotal_minor' })
  grandtotalMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'subtotal_minor' })
  subtotalMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_price_minor' })
  totalPriceMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_shipping_minor' })
  totalShippingMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_tax_minor' })
  totalTaxMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'total_vat_minor', nullable: true })
  totalVatMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'discount_minor', nullable: true })
  discountMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'gift_wrap_minor', nullable: true })
  giftWrapMinor: MinorUnits | null;

  /** Σ successful refunds[] in the receipt's currency. */
  @MinorUnitsColumn({ name: 'refunded_minor', default: 0 })
  refundedMinor: MinorUnits;

  @Column({ name: 'item_count', type: 'int' })
  itemCount: number;

  /** Etsy's create_timestamp. */
  @Column({ name: 'ordered_at', type: 'timestamptz' })
  orderedAt: Date;

  /** Etsy's update_timestamp: the source version an upsert compares. */
  @Column({ name: 'source_updated_at', type: 'timestamptz' })
  sourceUpdatedAt: Date;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'payload_hash', type: 'text' })
  payloadHash: string;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt: Date;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
