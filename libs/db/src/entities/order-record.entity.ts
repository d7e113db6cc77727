import {
  Check,
  Column,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type ValueTransformer,
} from 'typeorm';
import type { MatchMethod, MatchStatus, NotNeededReason } from '@pod/domain';
import { PAIRING_CHECK } from '../migrations/1765600000000-several-printify-orders';
import { EtsyReceiptEntity } from './etsy-receipt.entity';
import { PrintifyOrderEntity } from './printify-order.entity';
import { UserEntity } from './user.entity';

/** numeric(5,4) arrives from pg as a string; the confidence is a fraction, not money, so a number is right. */
const confidenceTransformer: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: unknown) => (value === null || value === undefined ? null : Number(value)),
};

/**
 * One order as the seller sees it: an Etsy receipt with its Printify order (matched or pending),
 * a lone receipt or a lone Printify order. Written by the matcher (and the user's manual
 * decisions); the list fields are copied from the sides for search and sort. The id stays while
 * the record's identity does (its receipt, else its Printify order): per-order figures key on it.
 */
@Entity({ name: 'order_record' })
@Check('order_record_status_check', `status IN ('matched', 'pending', 'unmatched', 'not_needed')`)
@Check(
  'order_record_not_needed_reason_check',
  `(status = 'not_needed') = (not_needed_reason IS NOT NULL) AND (not_needed_reason IS NULL OR not_needed_reason IN ('digital', 'printify_sample', 'printify_manual', 'canceled_empty'))`,
)
@Check('order_record_match_method_check', `match_method IN ('exact', 'fuzzy', 'manual')`)
@Check('order_record_match_confidence_check', `match_confidence BETWEEN 0 AND 1`)
@Check(
  'order_record_sides_check',
  `(etsy_shop_id IS NULL) = (etsy_receipt_id IS NULL) AND (printify_shop_id IS NULL) = (printify_order_id IS NULL) AND (etsy_receipt_id IS NOT NULL OR printify_order_id IS NOT NULL)`,
)
@Check('order_record_pairing_check', PAIRING_CHECK)
@Index('order_record_receipt_idx', ['userId', 'etsyReceiptId', 'etsyShopId'], {
  unique: true,
  where: 'etsy_receipt_id IS NOT NULL',
})
@Index('order_record_printify_order_idx', ['userId', 'printifyOrderId', 'printifyShopId'], {
  unique: true,
  where: 'printify_order_id IS NOT NULL',
})
@Index('order_record_list_idx', ['userId', 'orderDate', 'id'], { where: 'archived_at IS NULL' })
@Index('order_record_status_idx', ['userId', 'status', 'orderDate'], { where: 'archived_at IS NULL' })
// The archived view's list, and the undated records the Orders counts read from the rows (migration 1765520000000).
@Index('order_record_archived_idx', ['userId', 'orderDate', 'id'], { where: 'archived_at IS NOT NULL' })
@Index('order_record_undated_idx', ['userId'], { where: 'order_date IS NULL' })
// Every dated record, archived too: the figures' part-day reads (migration 1765701400000).
@Index('order_record_dated_idx', ['userId', 'orderDate'], { where: 'order_date IS NOT NULL' })
// A GIN index over (user_id, the searched text's trigrams) TypeORM cannot declare (see the migration).
@Index('order_record_user_search_idx', { synchronize: false })
export class OrderRecordEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'order_record_pkey' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'order_record_user_id_fkey' })
  user?: UserEntity;

  @Column({ name: 'etsy_shop_id', type: 'text', nullable: true })
  etsyShopId: string | null;

  @Column({ name: 'etsy_receipt_id', type: 'text', nullable: true })
  etsyReceiptId: string | null;

  @ManyToOne(() => EtsyReceiptEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'user_id', referencedColumnName: 'userId', foreignKeyConstraintName: 'order_record_receipt_fkey' },
    { name: 'etsy_shop_id', referencedColumnName: 'shopId', foreignKeyConstraintName: 'order_record_receipt_fkey' },
    {
      name: 'etsy_receipt_id',
      referencedColumnName: 'receiptId',
      foreignKeyConstraintName: 'order_record_receipt_fkey',
    },
  ])
  receipt?: EtsyReceiptEntity;

  @Column({ name: 'printify_shop_id', type: 'text', nullable: true })
  printifyShopId: string | null;

  @Column({ name: 'printify_order_id', type: 'text', nullable: true })
  printifyOrderId: string | null;

  @ManyToOne(() => PrintifyOrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    { name: 'user_id', referencedColumnName: 'userId', foreignKeyConstraintName: 'order_record_printify_order_fkey' },
    {
      name: 'printify_shop_id',
      referencedColumnName: 'shopId',
      foreignKeyConstraintName: 'order_record_printify_order_fkey',
    },
    {
      name: 'printify_order_id',
      referencedColumnName: 'orderId',
      foreignKeyConstraintName: 'order_record_printify_order_fkey',
    },
  ])
  printifyOrder?: PrintifyOrderEntity;

  @Column({ type: 'text' })
  status: MatchStatus;

  /** Why a not_needed record needs no match; set exactly when status is not_needed. */
  @Column({ name: 'not_needed_reason', type: 'text', nullable: true })
  notNeededReason: NotNeededReason | null;

  @Column({ name: 'match_method', type: 'text', nullable: true })
  matchMethod: MatchMethod | null;

  @Column({
    name: 'match_confidence',
    type: 'numeric',
    precision: 5,
    scale: 4,
    nullable: true,
    transformer: confidenceTransformer,
  })
  matchConfidence: number | null;

  @Column({ name: 'archived_at', type: 'timestamptz', nullable: true })
  archivedAt: Date | null;

  /** The Etsy side's date, else the Printify side's. */
  @Column({ name: 'order_date', type: 'timestamptz', nullable: true })
  orderDate: Date | null;

  @Column({ name: 'customer_name', type: 'text', nullable: true })
  customerName: string | null;

  @Column({ name: 'product_title', type: 'text', nullable: true })
  productTitle: string | null;

  @Column({ name: 'product_sku', type: 'text', nullable: true })
  productSku: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
