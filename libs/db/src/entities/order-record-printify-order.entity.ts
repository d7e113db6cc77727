import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { AttachmentReason } from '@pod/domain';
import { OrderRecordEntity } from './order-record.entity';
import { PrintifyOrderEntity } from './printify-order.entity';
import { UserEntity } from './user.entity';

/**
 * A receipt's additional Printify order (a reprint, a split, or one the seller added by hand);
 * the primary stays on order_record. One row per Printify order, and no order is both a
 * record's primary and attached (triggers of migration 1765600000000; ADR 0025).
 */
@Entity({ name: 'order_record_printify_order' })
@Check('order_record_printify_order_reason_check', `reason IN ('reprint', 'split', 'manual')`)
@Index('order_record_printify_order_record_idx', ['orderRecordId'])
export class OrderRecordPrintifyOrderEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'order_record_printify_order_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'order_record_printify_order_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({
    name: 'printify_order_id',
    type: 'text',
    primaryKeyConstraintName: 'order_record_printify_order_pkey',
  })
  printifyOrderId: string;

  @PrimaryColumn({
    name: 'printify_shop_id',
    type: 'text',
    primaryKeyConstraintName: 'order_record_printify_order_pkey',
  })
  printifyShopId: string;

  @Column({ name: 'order_record_id', type: 'uuid' })
  orderRecordId: string;

  @ManyToOne(() => OrderRecordEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_record_id', foreignKeyConstraintName: 'order_record_printify_order_record_fkey' })
  orderRecord?: OrderRecordEntity;

  @ManyToOne(() => PrintifyOrderEntity, { onDelete: 'CASCADE' })
  @JoinColumn([
    {
      name: 'user_id',
      referencedColumnName: 'userId',
      foreignKeyConstraintName: 'order_record_printify_order_order_fkey',
    },
    {
      name: 'printify_shop_id',
      referencedColumnName: 'shopId',
      foreignKeyConstraintName: 'order_record_printify_order_order_fkey',
    },
    {
      name: 'printify_order_id',
      referencedColumnName: 'orderId',
      foreignKeyConstraintName: 'order_record_printify_order_order_fkey',
    },
  ])
  printifyOrder?: PrintifyOrderEntity;

  @Column({ type: 'text' })
  reason: AttachmentReason;

  @Column({ name: 'attached_at', type: 'timestamptz', default: () => 'now()' })
  attachedAt: Date;
}
