import type { FxRateRow } from '@pod/domain';
import type { Db } from './database-session';

export interface FxUpsertCounts {
  inserted: number;
  changed: number;
  unchanged: number;
}

/** Rows per statement: three arrays of this length travel as parameters (unnest). */
const CHUNK = 5_000;

/**
 * fx_rate: the ECB's reference rates, global (not owner-scoped: no tenant data). Rates go in
 * and come out as decimal text (`numeric` ↔ string), never through a float. Upserts are
 * idempotent: a row is written only when its value is new or different, so loading the same
 * file again changes nothing.
 */
export class FxRatesRepository {
  constructor(private readonly db: Db) {}

  async upsertRates(rows: readonly FxRateRow[], source: string, fetchedAt: Date): Promise<FxUpsertCounts> {
    const counts: FxUpsertCounts = { inserted: 0, changed: 0, unchanged: 0 };
    for (let start = 0; start < rows.length; start += CHUNK) {
      const chunk = rows.slice(start, start + CHUNK);
      const written: { inserted: boolean }[] = await this.db.query(
        `INSERT INTO fx_rate (rate_date, currency, per_eur, source, fetched_at)
         SELECT d, c, r, $4, $5 FROM unnest($1::date[], $2::text[], $3::numeric[]) AS t(d, c, r)
         ON CONFLICT (rate_date, currency) DO UPDATE
           SET per_eur = EXCLUDED.per_eur, source = EXCLUDED.source, fetched_at = EXCLUDED.fetched_at
           WHERE fx_rate.per_eur <> EXCLUDED.per_eur
         RETURNING (xmax = 0) AS inserted`,
        [
          chunk.map((row) => row.date),
          chunk.map((row) => row.currency),
          chunk.map((row) => row.perEur),
          source,
          fetchedAt,
        ],
      );
      const inserted = written.filter((row) => row.inserted).length;
      counts.inserted += inserted;
      counts.changed += written.length - inserted;
      counts.unchanged += chunk.length - written.length;
    }
    return counts;
  }

  /** The newest ECB day stored, or null while the table is empty. */
  async latestDate(): Promise<string | null> {
    const rows: { latest: string | null }[] = await this.db.query(`SELECT max(rate_date)::text AS latest FROM fx_rate`);
    return rows[0]?.latest ?? null;
  }

  /** Every stored rate from `from` to `to` (inclusive), optionally of some currencies only, for a RateTable. */
  async ratesBetween(from: string, to: string, currencies?: readonly string[]): Promise<FxRateRow[]> {
    const rows: FxRateRow[] = await this.db.query(
      `SELECT rate_date::text AS date, currency, per_eur::text AS "perEur" FROM fx_rate
       WHERE rate_date BETWEEN $1::date AND $2::date AND ($3::text[] IS NULL OR currency = ANY($3::text[]))
       ORDER BY rate_date, currency`,
      [from, to, currencies ? [...currencies] : null],
    );
    return rows;
  }

  async count(): Promise<number> {
    const rows: { count: string }[] = await this.db.query(`SELECT count(*)::text AS count FROM fx_rate`);
    return Number(rows[0]?.count ?? 0);
  }
}
