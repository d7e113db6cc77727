import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * An entry of the shop's payment-account ledger (fees, credits, payouts). `receipt_id` is
 * filled where the references allow (a transaction, a receipt, a payment, a parent entry);
 * `link_pending` marks entries whose receipt may still arrive.
 */
@Entity({ name: 'etsy_ledger_entry' })
@Index('etsy_ledger_entry_receipt_idx', ['userId', 'receiptId'])
@Index('etsy_ledger_entry_reference_idx', ['userId', 'referenceId'])
@Index('etsy_ledger_entry_created_idx', ['userId', 'shopId', 'entryCreatedAt'])
@Index('etsy_ledger_entry_deposit_idx', ['userId', 'entryCreatedAt', 'shopId'], {
  where: `lower(ledger_type) = 'disburse2'`,
})
@Index('etsy_ledger_entry_pending_idx', ['userId', 'shopId'], { where: 'link_pending' })
export class EtsyLedgerEntryEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'etsy_ledger_entry_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'etsy_ledger_entry_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'etsy_ledger_entry_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'entry_id', type: 'text', primaryKeyConstraintName: 'etsy_ledger_entry_pkey' })
  entryId: string;

  /** As sent (no official enum): compare case-insensitively; unknown types are kept. */
  @Column({ name: 'ledger_type', type: 'text' })
  ledgerType: string;

  @Column({ name: 'reference_type', type: 'text', nullable: true })
  referenceType: string | null;

  @Column({ name: 'reference_id', type: 'text', nullable: true })
  referenceId: string | null;

  @Column({ name: 'parent_entry_id', type: 'text', nullable: true })
  parentEntryId: string | null;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  /** Signed: credits positive, fees negative. */
  @MinorUnitsColumn({ name: 'amount_minor' })
  amountMinor: MinorUnits;

  @Column({ name: 'entry_created_at', type: 'timestamptz' })
  entryCreatedAt: Date;

  @Column({ name: 'receipt_id', type: 'text', nullable: true })
  receiptId: string | null;

  @Column({ name: 'link_pending', type: 'boolean' })
  linkPending: boolean;

  @Column({ type: 'jsonb' })
  payload: unknown;

  @Column({ name: 'payload_hash', type: 'text' })
  payloadHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
