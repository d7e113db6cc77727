import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/** The payment of a receipt (gross, processing fees, net, and the same after refunds), in `currency`. */
@Entity({ name: 'etsy_payment' })
@Index('etsy_payment_receipt_idx', ['userId', 'shopId', 'receiptId'])
export class EtsyPaymentEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'etsy_payment_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'etsy_payment_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'etsy_payment_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'payment_id', type: 'text', primaryKeyConstraintName: 'etsy_payment_pkey' })
  paymentId: string;

  @Column({ name: 'receipt_id', type: 'text' })
  receiptId: string;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  @MinorUnitsColumn({ name: 'amount_gross_minor' })
  amountGrossMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'amount_fees_minor' })
  amountFeesMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'amount_net_minor' })
  amountNetMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'posted_gross_minor', nullable: true })
  postedGrossMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'posted_fees_minor', nullable: true })
  postedFeesMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'posted_net_minor', nullable: true })
  postedNetMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'adjusted_gross_minor', nullable: true })
  adjustedGrossMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'adjusted_fees_minor', nullable: true })
  adjustedFeesMinor: MinorUnits | null;

  @MinorUnitsColumn({ name: 'adjusted_net_minor', nullable: true })
  adjustedNetMinor: MinorUnits | null;

  @Column({ type: 'text', nullable: true })
  status: string | null;

  @Column({ name: 'source_updated_at', type: 'timestamptz', nullable: true })
  sourceUpdatedAt: Date | null;

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
