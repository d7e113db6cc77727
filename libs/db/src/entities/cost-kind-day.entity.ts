import { Check, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { currencyCodeTransformer, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * The Analytics page's "where the money goes" for one user's orders of one UTC day, in one
 * display currency: the orders' signed cost lines of one kind summed (migration
 * 1765701300000-analytics-rollups, ADR 0038). Derived, kept with dashboard_day in the same refresh.
 */
@Entity({ name: 'cost_kind_day' })
@Check('cost_kind_day_currency_check', `currency IN ('USD', 'EUR', 'GBP')`)
export class CostKindDayEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'cost_kind_day_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'cost_kind_day_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({
    type: 'char',
    length: 3,
    transformer: currencyCodeTransformer,
    primaryKeyConstraintName: 'cost_kind_day_pkey',
  })
  currency: DisplayCurrencyCode;

  /** The UTC day of the orders' order_date ('YYYY-MM-DD'). */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'cost_kind_day_pkey' })
  day: string;

  /** The cost line's kind, as the stored breakdown names it. */
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'cost_kind_day_pkey' })
  kind: string;

  @MinorUnitsColumn({ name: 'cost_minor' })
  costMinor: number;
}
