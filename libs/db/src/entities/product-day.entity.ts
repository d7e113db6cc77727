import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { currencyCodeTransformer, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * The Analytics page's "profit by product" for one user's orders of one UTC day with one
 * product title, in one display currency (migration 1765701300000-analytics-rollups, ADR 0038).
 * Derived, kept with dashboard_day in the same refresh.
 */
@Entity({ name: 'product_day' })
@Check('product_day_currency_check', `currency IN ('USD', 'EUR', 'GBP')`)
@Check('product_day_orders_check', `orders > 0`)
export class ProductDayEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'product_day_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'product_day_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({
    type: 'char',
    length: 3,
    transformer: currencyCodeTransformer,
    primaryKeyConstraintName: 'product_day_pkey',
  })
  currency: DisplayCurrencyCode;

  /** The UTC day of the orders' order_date ('YYYY-MM-DD'). */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'product_day_pkey' })
  day: string;

  /** The orders' product title; '' for orders without one (a key column cannot be null). */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'product_day_pkey' })
  product: string;

  @Column({ type: 'integer' })
  orders: number;

  @MinorUnitsColumn({ name: 'revenue_minor' })
  revenueMinor: number;

  @MinorUnitsColumn({ name: 'net_profit_minor' })
  netProfitMinor: number;
}
