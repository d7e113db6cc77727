import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** One ECB reference rate (see the migration 1764500000000-fx-rates). Rates stay decimal strings end to end. */
@Entity({ name: 'fx_rate' })
@Check('fx_rate_currency_check', `currency ~ '^[A-Z]{3}$'`)
@Check('fx_rate_per_eur_check', `per_eur > 0`)
export class FxRateEntity {
  @PrimaryColumn({ name: 'rate_date', type: 'date', primaryKeyConstraintName: 'fx_rate_pkey' })
  rateDate: string;

  @PrimaryColumn({ type: 'char', length: 3, primaryKeyConstraintName: 'fx_rate_pkey' })
  currency: string;

  /** Units of `currency` per 1 EUR, exactly as published (pg returns numeric as a string). */
  @Column({ name: 'per_eur', type: 'numeric' })
  perEur: string;

  /** Which ECB file the value came from (eurofxref-daily.xml, …). */
  @Column({ type: 'text' })
  source: string;

  @Column({ name: 'fetched_at', type: 'timestamptz', default: () => 'now()' })
  fetchedAt: Date;
}
