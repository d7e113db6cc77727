import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { DisplayCurrencyCode, ShopCostKind } from '@pod/domain';
import { currencyCodeTransformer, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * One user's shop costs of one UTC day and kind in one display currency (migration
 * 1765620000000-shop-costs-and-payouts, docs/adr/0027): the ledger entries no order carries,
 * each converted at its own date. Derived: the matcher's compute-profits run rewrites them.
 */
@Entity({ name: 'shop_cost_day' })
@Index('shop_cost_day_not_final_idx', ['userId'], { where: 'provisional > 0 OR without_rate > 0' })
@Check('shop_cost_day_currency_check', `currency IN ('USD', 'EUR', 'GBP')`)
export class ShopCostDayEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'shop_cost_day_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'shop_cost_day_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({
    type: 'char',
    length: 3,
    transformer: currencyCodeTransformer,
    primaryKeyConstraintName: 'shop_cost_day_pkey',
  })
  currency: DisplayCurrencyCode;

  /** The UTC day of the entries' created date ('YYYY-MM-DD'). */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'shop_cost_day_pkey' })
  day: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'shop_cost_day_pkey' })
  kind: ShopCostKind;

  /** Costs positive, credits negative, in `currency`; entries without a rate are not in it. */
  @MinorUnitsColumn({ name: 'cost_minor' })
  costMinor: number;

  @Column({ type: 'integer' })
  entries: number;

  @Column({ name: 'without_rate', type: 'integer' })
  withoutRate: number;

  /** Entries converted at a stand-in day's rates (their own day not loaded yet): in the cost, provisionally (migration 1765640000000). */
  @Column({ type: 'integer' })
  provisional: number;
}
