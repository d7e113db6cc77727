import type { CurrencyCode } from '@pod/domain';
import { safeInteger } from './day-rollups';

/** A covered entry of a payout, in the ledger's order, with what the balance check found. */
export interface PayoutEntryRow {
  entryId: string;
  ledgerType: string;
  parentLedgerType: string | null;
  linkedToOrder: boolean;
  receiptId: string | null;
  createdAt: string;
  amountMinor: number;
  /** Etsy's running balance after the entry (null when the payload has none). */
  balanceMinor: number | null;
  sequenceNumber: number | null;
  /** Etsy's balance minus (the previous entry's balance + this amount): 0 when they agree, null when unknown. */
  balanceBreakMinor: number | null;
  /** Sequence numbers skipped just before this entry (entries we do not hold), 0 when none. */
  missingBefore: number;
}

export interface PayoutTypeSumRow {
  ledgerType: string;
  parentLedgerType: string | null;
  linkedToOrder: boolean;
  entries: number;
  sumMinor: number;
}

/** One Etsy deposit (DISBURSE2) with what it covers since the previous one. */
export interface PayoutRow {
  shopId: string;
  entryId: string;
  createdAt: string;
  currency: CurrencyCode;
  /** The deposit's signed amount (a debit of the account: negative). */
  amountMinor: number;
  balanceAfterMinor: number | null;
  /** Etsy's balance before the first covered entry (after the previous deposit); null when unknown. */
  openingMinor: number | null;
  /** The deposit entry's own balance check (as an entry's `balanceBreakMinor`). */
  depositBreakMinor: number | null;
  sums: PayoutTypeSumRow[];
  entries: PayoutEntryRow[];
}

/** A payload number as bigint, null when the payload has none (the payload is what Etsy sent). */
export const payloadBigint = (alias: string, path: string) =>
  `CASE WHEN jsonb_typeof(${alias}.payload -> '${path}') = 'number' THEN (${alias}.payload ->> '${path}')::numeric::bigint END`;

/**
 * The ledger's order as one comparable row: created date, then Etsy's sequence number (none
 * last), then the entry id as a number. Unique per shop, so a window's bounds are exact.
 */
export const ledgerKey = (alias: string) =>
  `ROW(${alias}.entry_created_at, coalesce(${payloadBigint(alias, 'sequence_number')}, 9223372036854775807), length(${alias}.entry_id), ${alias}.entry_id)`;

export const IS_DEPOSIT = (alias: string) => `lower(${alias}.ledger_type) = 'disburse2'`;

/**
 * A window of one shop's ledger per row of `bounds` (shop_id, window_id; from_key: the deposit
 * before the window, or null from the start; to_key: its last entry, or null to the end;
 * from_at/to_at: their instants, never null: -infinity/infinity), read by range on
 * etsy_ledger_entry_created_idx. The range compares plain columns: under row-level security a
 * COALESCE there would keep the range out of the index (it is not known to be leakproof). The entry at `from_key` is read
 * too, as the anchor: its balance is the window's opening and the first covered entry is
 * checked against it. `covered` is false for the anchor and for the deposit closing the window
 * (`closing`). `opening` is, without an anchor, the first
 * entry's balance − its amount. OFFSET 0 keeps the window a subquery run per bound (the planner
 * would otherwise hash-join the bounds with a scan of the user's whole ledger).
 */
export const WINDOWED_SQL = `
  windowed AS (
    SELECT b.window_id, b.shop_id, w.*,
      lag(w.balance) OVER win AS prev_balance, lag(w.seq) OVER win AS prev_seq,
      row_number() OVER win AS position,
      first_value(CASE WHEN b.from_key IS NULL THEN w.balance - w.amount_minor ELSE w.balance END) OVER win AS opening,
      coalesce(w.key = b.to_key, false) AS closing,
      coalesce(w.key <> b.from_key, true) AND coalesce(w.key <> b.to_key, true) AS covered
    FROM bounds b CROSS JOIN LATERAL (
      SELECT e.entry_id, e.ledger_type, e.currency, e.amount_minor, e.entry_created_at, e.receipt_id,
        CASE WHEN e.parent_entry_id IS NOT NULL THEN (
          SELECT parent.ledger_type FROM etsy_ledger_entry parent
          WHERE parent.user_id = $1 AND parent.shop_id = e.shop_id AND parent.entry_id = e.parent_entry_id) END AS parent_ledger_type,
        ${payloadBigint('e', 'balance')} AS balance,
        ${payloadBigint('e', 'sequence_number')} AS seq, ${IS_DEPOSIT('e')} AS is_deposit, ${ledgerKey('e')} AS key
      FROM etsy_ledger_entry e
      WHERE e.user_id = $1 AND e.shop_id = b.shop_id
        AND e.entry_created_at >= b.from_at AND e.entry_created_at <= b.to_at
        AND (b.from_key IS NULL OR ${ledgerKey('e')} >= b.from_key) AND (b.to_key IS NULL OR ${ledgerKey('e')} <= b.to_key)
      OFFSET 0 -- read per window by range, never joined with the whole ledger by hash
    ) w
    WINDOW win AS (PARTITION BY b.window_id ORDER BY w.key ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  )`;

/** Per window (`d.window_id`): the covered entries summed by type and listed. */
export const WINDOW_SUMS_AND_ENTRIES_SQL = `
  (SELECT coalesce(json_agg(s ORDER BY s.ledger_type, s.parent_ledger_type, s.linked), '[]') FROM (
     SELECT p.ledger_type, p.parent_ledger_type, p.receipt_id IS NOT NULL AS linked, count(*)::int AS entries,
       sum(p.amount_minor)::text AS sum_minor
     FROM windowed p WHERE p.window_id = d.window_id AND p.covered
     GROUP BY 1, 2, 3) s) AS sums,
  (SELECT coalesce(json_agg(x ORDER BY x.position), '[]') FROM (
     SELECT p.position, p.entry_id, p.ledger_type, p.parent_ledger_type, p.receipt_id, p.entry_created_at,
       p.amount_minor::text AS amount_minor, p.balance::text AS balance, p.seq::text AS seq,
       (p.balance - (p.prev_balance + p.amount_minor))::text AS balance_break,
       greatest(coalesce(p.seq - p.prev_seq - 1, 0), 0)::text AS missing_before
     FROM windowed p WHERE p.window_id = d.window_id AND p.covered) x) AS entries`;

export const nullableInteger = (value: unknown) => (value === null || value === undefined ? null : safeInteger(value));

export function sumRowsOf(sums: unknown): PayoutTypeSumRow[] {
  return (sums as Record<string, unknown>[]).map((sum) => ({
    ledgerType: String(sum.ledger_type),
    parentLedgerType: (sum.parent_ledger_type as string | null) ?? null,
    linkedToOrder: sum.linked === true,
    entries: Number(sum.entries),
    sumMinor: safeInteger(sum.sum_minor),
  }));
}

export function entryRowsOf(entries: unknown): PayoutEntryRow[] {
  return (entries as Record<string, unknown>[]).map((entry) => ({
    entryId: String(entry.entry_id),
    ledgerType: String(entry.ledger_type),
    parentLedgerType: (entry.parent_ledger_type as string | null) ?? null,
    linkedToOrder: entry.receipt_id !== null,
    receiptId: (entry.receipt_id as string | null) ?? null,
    createdAt: new Date(entry.entry_created_at as string).toISOString(),
    amountMinor: safeInteger(entry.amount_minor),
    balanceMinor: nullableInteger(entry.balance),
    sequenceNumber: nullableInteger(entry.seq),
    balanceBreakMinor: nullableInteger(entry.balance_break),
    missingBefore: safeInteger(entry.missing_before),
  }));
}

/** A deposit row as both the walk of the whole ledger (bench:payouts' old read) and the windowed read return it. */
export function payoutRowOf(row: Record<string, unknown>): PayoutRow {
  return {
    shopId: String(row.shop_id),
    entryId: String(row.entry_id),
    createdAt: new Date(row.entry_created_at as string).toISOString(),
    currency: String(row.currency) as CurrencyCode,
    amountMinor: safeInteger(row.amount_minor),
    balanceAfterMinor: nullableInteger(row.balance),
    openingMinor: nullableInteger(row.opening),
    sums: sumRowsOf(row.sums),
    entries: entryRowsOf(row.entries),
    depositBreakMinor: nullableInteger(row.deposit_break),
  };
}
