import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/** One line (Etsy transaction) of a receipt; replaced with its receipt whenever the receipt changes. */
@Entity({ name: 'etsy_receipt_line' })
@Index('etsy_receipt_line_receipt_idx', ['userId', 'receiptId'])
@Index('etsy_receipt_line_listing_idx', ['userId', 'shopId', 'listingId'])
export class EtsyReceiptLineEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'etsy_receipt_line_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'etsy_receipt_line_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'etsy_receipt_line_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'transaction_id', type: 'text', primaryKeyConstraintName: 'etsy_receipt_line_pkey' })
  transactionId: string;

  @Column({ name: 'receipt_id', type: 'text' })
  receiptId: string;

  @Column({ name: 'listing_id', type: 'text', nullable: true })
  listingId: string | null;

  @Column({ name: 'product_id', type: 'text', nullable: true })
  productId: string | null;

  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ type: 'text', nullable: true })
  sku: string | null;

  @Column({ type: 'int' })
  quantity: number;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  @MinorUnitsColumn({ name: 'unit_price_minor' })
  unitPriceMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'shipping_minor', nullable: true })
  shippingMinor: MinorUnits | null;

  @Column({ name: 'is_digital', type: 'boolean' })
  isDigital: boolean;
}
