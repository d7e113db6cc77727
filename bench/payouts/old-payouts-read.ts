import type { DataSource } from 'typeorm';
import { payoutRowOf, withTenant, type PayoutRow } from '@pod/db';

/*
 * The Payouts page's read before migration 1765640000000 (a frozen copy of
 * PayoutsRepository.page of 2026-11-28, commit 9400f10): one statement walking the user's whole
 * ledger with window functions, then every deposit of the page scanning the walk again. Kept for
 * bench:payouts and the test that the windowed read gives the same answer.
 */
const BIGINT_OR_NULL = (path: string) =>
  `CASE WHEN jsonb_typeof(e.payload -> '${path}') = 'number' THEN (e.payload ->> '${path}')::numeric::bigint END`;

/** The ledger's order: created date, then Etsy's sequence number, then the entry id as a number. */
const LEDGER_ORDER = `entry_created_at, seq NULLS LAST, length(entry_id), entry_id`;

/**
 * The Payouts page (docs/adr/0027): a shop's ledger walked in order with window functions. An
 * entry's `period` is how many deposits come before it, so a deposit and the entries it covers
 * (since the previous deposit) share one; each entry's balance is checked against the previous
 * entry's balance plus its amount, and its sequence number against the previous one's + 1.
 */
const LEDGER_WALK_SQL = `
  WITH e AS (
    SELECT e.shop_id, e.entry_id, e.ledger_type, e.currency, e.amount_minor, e.entry_created_at, e.receipt_id,
      parent.ledger_type AS parent_ledger_type, ${BIGINT_OR_NULL('balance')} AS balance, ${BIGINT_OR_NULL('sequence_number')} AS seq,
      lower(e.ledger_type) = 'disburse2' AS is_deposit
    FROM etsy_ledger_entry e
    LEFT JOIN etsy_ledger_entry parent ON parent.user_id = e.user_id AND parent.shop_id = e.shop_id AND parent.entry_id = e.parent_entry_id
    WHERE e.user_id = $1
  ), walked AS (
    SELECT e.*,
      coalesce(count(*) FILTER (WHERE is_deposit) OVER (PARTITION BY shop_id ORDER BY ${LEDGER_ORDER} ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS period,
      lag(balance) OVER ordered AS prev_balance,
      lag(seq) OVER ordered AS prev_seq,
      row_number() OVER ordered AS position
    FROM e WINDOW ordered AS (PARTITION BY shop_id ORDER BY ${LEDGER_ORDER})
  ), periods AS (
    SELECT walked.*,
      first_value(CASE WHEN position = 1 THEN balance - amount_minor ELSE prev_balance END)
        OVER (PARTITION BY shop_id, period ORDER BY ${LEDGER_ORDER}) AS opening
    FROM walked
  )`;

/** A page of deposits, newest first, as the old read gave them (the total is not compared). */
export async function oldPayoutsPage(
  dataSource: DataSource,
  userId: string,
  limit: number,
  offset: number,
): Promise<PayoutRow[]> {
  const rows: Record<string, unknown>[] = await withTenant(dataSource, userId, (db) =>
    db.query(
      `${LEDGER_WALK_SQL},
        deposits AS (
          SELECT shop_id, entry_id, entry_created_at, currency, amount_minor, balance, period, opening, seq, count(*) OVER () AS total
          FROM periods WHERE is_deposit
          ORDER BY entry_created_at DESC, seq DESC NULLS LAST, length(entry_id) DESC, entry_id DESC
          LIMIT $2 OFFSET $3)
        SELECT d.shop_id, d.entry_id, d.entry_created_at, d.currency, d.amount_minor::text AS amount_minor, d.balance::text AS balance,
          d.opening::text AS opening, d.total::text AS total,
          (SELECT coalesce(json_agg(s ORDER BY s.ledger_type, s.parent_ledger_type, s.linked), '[]') FROM (
             SELECT p.ledger_type, p.parent_ledger_type, p.receipt_id IS NOT NULL AS linked, count(*)::int AS entries,
               sum(p.amount_minor)::text AS sum_minor
             FROM periods p WHERE p.shop_id = d.shop_id AND p.period = d.period AND NOT p.is_deposit
             GROUP BY 1, 2, 3) s) AS sums,
          (SELECT coalesce(json_agg(x ORDER BY x.position), '[]') FROM (
             SELECT p.position, p.entry_id, p.ledger_type, p.parent_ledger_type, p.receipt_id, p.entry_created_at,
               p.amount_minor::text AS amount_minor, p.balance::text AS balance, p.seq::text AS seq,
               (p.balance - (p.prev_balance + p.amount_minor))::text AS balance_break,
               greatest(coalesce(p.seq - p.prev_seq - 1, 0), 0)::text AS missing_before
             FROM periods p WHERE p.shop_id = d.shop_id AND p.period = d.period AND NOT p.is_deposit) x) AS entries,
          (SELECT (p.balance - (p.prev_balance + p.amount_minor))::text FROM periods p WHERE p.shop_id = d.shop_id AND p.entry_id = d.entry_id) AS deposit_break
        FROM deposits d
        ORDER BY d.entry_created_at DESC, d.seq DESC NULLS LAST, length(d.entry_id) DESC, d.entry_id DESC`,
      [userId, limit, offset],
    ),
  );
  return rows.map(payoutRowOf);
}
