import type { CurrencyCode } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { safeInteger } from './day-rollups';
import {
  entryRowsOf,
  IS_DEPOSIT,
  ledgerKey,
  nullableInteger,
  payloadBigint,
  payoutRowOf,
  sumRowsOf,
  WINDOW_SUMS_AND_ENTRIES_SQL,
  WINDOWED_SQL,
  type PayoutEntryRow,
  type PayoutRow,
  type PayoutTypeSumRow,
} from './payouts-sql';

export type { PayoutEntryRow, PayoutRow, PayoutTypeSumRow } from './payouts-sql';

/** A shop's entries since its last deposit (or since its first entry when it has none): money not paid out yet. */
export interface UnpaidRow {
  shopId: string;
  currency: CurrencyCode | null;
  /** The last deposit's date, null when the shop has none. */
  sinceDepositAt: string | null;
  /** Etsy's balance after the last deposit (for no deposit, the first entry's balance − its amount). */
  openingMinor: number | null;
  /** Etsy's balance after the newest entry: what the account holds now. */
  balanceNowMinor: number | null;
  sums: PayoutTypeSumRow[];
  entries: PayoutEntryRow[];
}

/** The page's deposits newest first (the order the page has always had; the shop last, so two shops' deposits of one instant page in a fixed order). */
const DEPOSITS_NEWEST_FIRST = (alias: string) =>
  `${alias}.entry_created_at DESC, ${payloadBigint(alias, 'sequence_number')} DESC NULLS LAST, length(${alias}.entry_id) DESC, ${alias}.entry_id DESC, ${alias}.shop_id DESC`;

/**
 * The deposit before a bound's (`d`) in its shop, by etsy_ledger_entry_deposit_idx: the anchor
 * of its window. Its instant first (the newest before, an index max), then among that instant's
 * deposits the last in ledger order: the index alone never sorts more than one instant.
 */
const PREVIOUS_DEPOSIT_SQL = (before: string | null) => {
  const earlier = (alias: string) =>
    `${alias}.shop_id = d.shop_id AND ${IS_DEPOSIT(alias)}${
      before ? ` AND ${alias}.entry_created_at <= d.entry_created_at AND ${ledgerKey(alias)} < ${before}` : ''
    }`;
  return `
  LEFT JOIN LATERAL (
    SELECT p.entry_created_at, ${ledgerKey('p')} AS key FROM etsy_ledger_entry p
    WHERE p.user_id = $1 AND ${earlier('p')} AND p.entry_created_at = (
      SELECT max(q.entry_created_at) FROM etsy_ledger_entry q WHERE q.user_id = $1 AND ${earlier('q')})
    ORDER BY ${ledgerKey('p')} DESC LIMIT 1) prev ON true`;
};

/**
 * The Payouts page (docs/adr/0027, amendment of 2026-11-28): the page's deposits are read by
 * etsy_ledger_entry_deposit_idx, each one's window [previous deposit, this deposit] by range on
 * etsy_ledger_entry_created_idx, so a page costs the entries of its payouts, not the ledger.
 * Each entry's balance is checked against the previous entry's balance plus its amount (the
 * first covered entry against the previous deposit's), its sequence number against the
 * previous one's + 1.
 */
const PAGE_SQL = `
  WITH deposits AS (
    SELECT d.shop_id, d.entry_id, d.entry_created_at, d.currency, d.amount_minor, ${payloadBigint('d', 'balance')} AS balance,
      ${payloadBigint('d', 'sequence_number')} AS seq, ${ledgerKey('d')} AS key, d.shop_id || ':' || d.entry_id AS window_id
    FROM etsy_ledger_entry d WHERE d.user_id = $1 AND ${IS_DEPOSIT('d')}
    ORDER BY ${DEPOSITS_NEWEST_FIRST('d')} LIMIT $2 OFFSET $3
  ), bounds AS MATERIALIZED (
    SELECT d.shop_id, d.window_id, coalesce(prev.entry_created_at, '-infinity') AS from_at, prev.key AS from_key,
      d.entry_created_at AS to_at, d.key AS to_key
    FROM deposits d ${PREVIOUS_DEPOSIT_SQL('d.key')}
  ), ${WINDOWED_SQL}
  SELECT d.shop_id, d.entry_id, d.entry_created_at, d.currency, d.amount_minor::text AS amount_minor, d.balance::text AS balance,
    (SELECT w.opening::text FROM windowed w WHERE w.window_id = d.window_id LIMIT 1) AS opening,
    ${WINDOW_SUMS_AND_ENTRIES_SQL},
    (SELECT (c.balance - (c.prev_balance + c.amount_minor))::text FROM windowed c WHERE c.window_id = d.window_id AND c.closing) AS deposit_break
  FROM deposits d
  ORDER BY d.entry_created_at DESC, d.seq DESC NULLS LAST, length(d.entry_id) DESC, d.entry_id DESC, d.shop_id DESC`;

/**
 * Money not paid out yet: per shop (found by a skip over etsy_ledger_entry_created_idx), the
 * entries after its last deposit, checked the same way; the newest entry's balance is what the
 * account holds now.
 */
const UNPAID_SQL = `
  WITH RECURSIVE shops AS (
    (SELECT e.shop_id FROM etsy_ledger_entry e WHERE e.user_id = $1 ORDER BY e.shop_id LIMIT 1)
    UNION ALL
    SELECT (SELECT e.shop_id FROM etsy_ledger_entry e WHERE e.user_id = $1 AND e.shop_id > s.shop_id ORDER BY e.shop_id LIMIT 1)
    FROM shops s WHERE s.shop_id IS NOT NULL
  ), bounds AS MATERIALIZED (
    SELECT d.shop_id, d.shop_id AS window_id, prev.entry_created_at AS deposit_at,
      coalesce(prev.entry_created_at, '-infinity') AS from_at, prev.key AS from_key,
      timestamptz 'infinity' AS to_at, CASE WHEN false THEN prev.key END AS to_key
    FROM (SELECT shop_id FROM shops WHERE shop_id IS NOT NULL) d ${PREVIOUS_DEPOSIT_SQL(null)}
  ), ${WINDOWED_SQL}
  SELECT d.shop_id, d.deposit_at,
    (SELECT w.currency FROM windowed w WHERE w.window_id = d.window_id ORDER BY w.position DESC LIMIT 1) AS currency,
    (SELECT w.opening::text FROM windowed w WHERE w.window_id = d.window_id LIMIT 1) AS opening,
    (SELECT w.balance::text FROM windowed w WHERE w.window_id = d.window_id ORDER BY w.position DESC LIMIT 1) AS balance_now,
    ${WINDOW_SUMS_AND_ENTRIES_SQL}
  FROM bounds d ORDER BY d.shop_id`;

/** The user's Etsy deposits, newest first, a page at a time, each with its covered entries summed by type and listed. */
export class PayoutsRepository {
  constructor(private readonly db: Db) {}

  async page(userId: string, limit: number, offset: number): Promise<{ total: number; payouts: PayoutRow[] }> {
    const [rows, total] = await inTenantScope(this.db, userId, async (db) => [
      (await db.query(PAGE_SQL, [userId, limit, offset])) as Record<string, unknown>[],
      await this.count(db, userId),
    ]);
    return { total, payouts: rows.map(payoutRowOf) };
  }

  /** Per shop, the entries since its last deposit (docs/adr/0027: "Not yet paid out"). */
  async unpaid(userId: string): Promise<UnpaidRow[]> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(UNPAID_SQL, [userId]),
    );
    return rows.map((row) => ({
      shopId: String(row.shop_id),
      currency: row.currency === null ? null : (String(row.currency) as CurrencyCode),
      sinceDepositAt: row.deposit_at === null ? null : new Date(row.deposit_at as string).toISOString(),
      openingMinor: nullableInteger(row.opening),
      balanceNowMinor: nullableInteger(row.balance_now),
      sums: sumRowsOf(row.sums),
      entries: entryRowsOf(row.entries),
    }));
  }

  /** How many deposits the user has, by etsy_ledger_entry_deposit_idx. */
  private async count(db: Db, userId: string): Promise<number> {
    const rows: { total: string }[] = await db.query(
      `SELECT count(*)::text AS total FROM etsy_ledger_entry d WHERE d.user_id = $1 AND ${IS_DEPOSIT('d')}`,
      [userId],
    );
    return safeInteger(rows[0]?.total);
  }
}
