import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { CurrencyCode, MinorUnits } from '@pod/domain';
import { CurrencyColumn, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/** One line item of a Printify order, numbered in the order sent; replaced with its order. */
@Entity({ name: 'printify_order_line' })
@Index('printify_order_line_sku_idx', ['userId', 'sku'], { where: `sku IS NOT NULL AND sku <> ''` })
export class PrintifyOrderLineEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'printify_order_line_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'printify_order_line_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({ name: 'shop_id', type: 'text', primaryKeyConstraintName: 'printify_order_line_pkey' })
  shopId: string;

  @PrimaryColumn({ name: 'order_id', type: 'text', primaryKeyConstraintName: 'printify_order_line_pkey' })
  orderId: string;

  @PrimaryColumn({ name: 'line_no', type: 'int', primaryKeyConstraintName: 'printify_order_line_pkey' })
  lineNo: number;

  @Column({ name: 'product_id', type: 'text', nullable: true })
  productId: string | null;

  @Column({ name: 'variant_id', type: 'text', nullable: true })
  variantId: string | null;

  @Column({ type: 'text', nullable: true })
  sku: string | null;

  @Column({ type: 'text', nullable: true })
  title: string | null;

  @Column({ name: 'variant_label', type: 'text', nullable: true })
  variantLabel: string | null;

  @Column({ type: 'int' })
  quantity: number;

  @CurrencyColumn({ name: 'currency' })
  currency: CurrencyCode;

  @MinorUnitsColumn({ name: 'cost_minor' })
  costMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'shipping_minor' })
  shippingMinor: MinorUnits;

  @MinorUnitsColumn({ name: 'retail_price_minor', nullable: true })
  retailPriceMinor: MinorUnits | null;

  @Column({ type: 'text', nullable: true })
  status: string | null;
}
