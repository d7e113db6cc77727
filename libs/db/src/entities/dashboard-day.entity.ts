import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { currencyCodeTransformer, MinorUnitsColumn } from '../columns';
import { UserEntity } from './user.entity';

/**
 * The dashboard's counts (active orders) and sums (every order, archived too: ADR 0027) of one
 * user's orders of one UTC day, in one display currency (migration 1765300000000-dashboard-rollups, docs/adr/0018-rollups.md). Derived: every
 * writer of order_record and order_profit recomputes the days it touched, in its transaction.
 */
@Entity({ name: 'dashboard_day' })
@Check('dashboard_day_currency_check', `currency IN ('USD', 'EUR', 'GBP')`)
export class DashboardDayEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'dashboard_day_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'dashboard_day_user_id_fkey' })
  user?: UserEntity;

  @PrimaryColumn({
    type: 'char',
    length: 3,
    transformer: currencyCodeTransformer,
    primaryKeyConstraintName: 'dashboard_day_pkey',
  })
  currency: DisplayCurrencyCode;

  /** The UTC day of the orders' order_date ('YYYY-MM-DD'). */
  @PrimaryColumn({ type: 'date', primaryKeyConstraintName: 'dashboard_day_pkey' })
  day: string;

  @Column({ type: 'integer' })
  matched: number;

  @Column({ type: 'integer' })
  pending: number;

  @Column({ type: 'integer' })
  unmatched: number;

  /** Orders whose current figures have sums (ok or provisional). */
  @Column({ type: 'integer' })
  summed: number;

  @Column({ type: 'integer' })
  provisional: number;

  @Column({ name: 'without_rate', type: 'integer' })
  withoutRate: number;

  /** Receipts waiting for their Printify order with no history to estimate from: left out of the sums (ADR 0031). */
  @Column({ name: 'awaiting_printify', type: 'integer' })
  awaitingPrintify: number;

  /** Receipts waiting for their Printify order, summed with an estimated Printify cost. */
  @Column({ name: 'estimated_printify', type: 'integer' })
  estimatedPrintify: number;

  @Column({ name: 'not_computed', type: 'integer' })
  notComputed: number;

  @MinorUnitsColumn({ name: 'revenue_minor' })
  revenueMinor: number;

  @MinorUnitsColumn({ name: 'costs_minor' })
  costsMinor: number;

  @MinorUnitsColumn({ name: 'net_profit_minor' })
  netProfitMinor: number;

  /** Costs of lone Printify records (no receipt), by order type: out of the order sums above (ADR 0027). */
  @MinorUnitsColumn({ name: 'printify_sample_minor' })
  printifySampleMinor: number;

  @MinorUnitsColumn({ name: 'printify_manual_minor' })
  printifyManualMinor: number;

  /** Printify orders of the marketplace attached to no receipt (yet). */
  @MinorUnitsColumn({ name: 'printify_unattached_minor' })
  printifyUnattachedMinor: number;
}
