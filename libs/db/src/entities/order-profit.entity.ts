import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import type { DisplayCurrencyCode, PrintifyCostState, StoredFiguresState, StoredOrderBreakdown } from '@pod/domain';
import { currencyCodeTransformer, MinorUnitsColumn } from '../columns';
import { OrderRecordEntity } from './order-record.entity';
import { UserEntity } from './user.entity';

/**
 * One order record's profit in one display currency (see the migrations
 * 1764700000000-order-profits and 1764800000000-provisional-figures, docs/adr/0011-order-figures.md
 * and 0014-provisional-rates.md). Written by the matcher's compute-profits job only; the figures
 * are null exactly when no rate converts the order (`provisional` ones have their sums).
 */
@Entity({ name: 'order_profit' })
@Check('order_profit_currency_check', `currency IN ('USD', 'EUR', 'GBP')`)
@Check('order_profit_figures_check', `figures IN ('ok', 'provisional', 'rate_unavailable')`)
@Check(
  'order_profit_amounts_check',
  `(figures <> 'rate_unavailable') = (revenue_minor IS NOT NULL AND costs_minor IS NOT NULL AND net_profit_minor IS NOT NULL)
          AND (figures <> 'rate_unavailable' OR (revenue_minor IS NULL AND costs_minor IS NULL AND net_profit_minor IS NULL))`,
)
@Check('order_profit_printify_cost_check', `printify_cost IN ('printify', 'estimated', 'awaiting', 'none')`)
// A covering index (INCLUDE the sums) TypeORM cannot declare: see the migration.
@Index('order_profit_user_idx', { synchronize: false })
// The Orders list's figure sorts (expression keys, INCLUDE): see migrations 1765700500000 and 1765700700000.
@Index('order_profit_revenue_sort_idx', { synchronize: false })
@Index('order_profit_costs_sort_idx', { synchronize: false })
@Index('order_profit_net_profit_sort_idx', { synchronize: false })
@Index('order_profit_margin_sort_idx', { synchronize: false })
@Index('order_profit_not_final_idx', ['userId'], { where: `figures <> 'ok'` })
export class OrderProfitEntity {
  @PrimaryColumn({ name: 'order_record_id', type: 'uuid', primaryKeyConstraintName: 'order_profit_pkey' })
  orderRecordId: string;

  @ManyToOne(() => OrderRecordEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'order_record_id', foreignKeyConstraintName: 'order_profit_record_fkey' })
  record?: OrderRecordEntity;

  /** The display currency of the figures (ISO code, a PrimaryColumn with the currency columns' transformer). */
  @PrimaryColumn({
    type: 'char',
    length: 3,
    transformer: currencyCodeTransformer,
    primaryKeyConstraintName: 'order_profit_pkey',
  })
  currency: DisplayCurrencyCode;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'order_profit_user_id_fkey' })
  user?: UserEntity;

  /** The record's sides when computed ("shop:receipt|shop:order"): a record whose sides moved since reads as not computed. */
  @Column({ name: 'record_sides', type: 'text' })
  recordSides: string;

  @Column({ type: 'text' })
  figures: StoredFiguresState;

  @MinorUnitsColumn({ name: 'revenue_minor', nullable: true })
  revenueMinor: number | null;

  @MinorUnitsColumn({ name: 'costs_minor', nullable: true })
  costsMinor: number | null;

  @MinorUnitsColumn({ name: 'net_profit_minor', nullable: true })
  netProfitMinor: number | null;

  @Column({ name: 'has_estimated_fees', type: 'boolean' })
  hasEstimatedFees: boolean;

  /** Where the Printify cost comes from; `awaiting` leaves the record out of the dashboard's sums (ADR 0031). */
  @Column({ name: 'printify_cost', type: 'text' })
  printifyCost: PrintifyCostState;

  @Column({ type: 'jsonb' })
  breakdown: StoredOrderBreakdown;

  @Column({ name: 'inputs_hash', type: 'text' })
  inputsHash: string;

  @Column({ name: 'computed_at', type: 'timestamptz', default: () => 'now()' })
  computedAt: Date;
}
