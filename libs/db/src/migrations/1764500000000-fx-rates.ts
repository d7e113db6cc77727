import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ECB reference rates: units of `currency` per 1 EUR on `rate_date`, as the exact decimal the
 * ECB published (numeric, never a float). Global, not tenant data: every seller's conversions
 * read the same rates. `currency` is any three-letter code the ECB used, retired ones (CYP,
 * HRK) included, so it is not limited to today's ISO list.
 */
export class FxRates1764500000000 implements MigrationInterface {
  name = 'FxRates1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE fx_rate (
        rate_date date NOT NULL,
        currency char(3) NOT NULL,
        per_eur numeric NOT NULL,
        source text NOT NULL,
        fetched_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT fx_rate_pkey PRIMARY KEY (rate_date, currency),
        CONSTRAINT fx_rate_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
        CONSTRAINT fx_rate_per_eur_check CHECK (per_eur > 0)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE fx_rate');
  }
}
