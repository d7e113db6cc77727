import { pipeline, Transform, type Readable } from 'node:stream';
import type { Pool, PoolClient } from 'pg';
import QueryStream from 'pg-query-stream';
import { DataSource } from 'typeorm';
import { FEE_KINDS, type DisplayCurrencyCode } from '@pod/domain';
import { safeInteger } from './day-rollups';
import type { Db } from './database-session';
import { beginScopedReadOnly } from './tenant-scope';
import { wholeListOrderSql, type OrderListSort } from './order-list-sort';
import {
  orderRowSelectSql,
  orderViewRowOf,
  OrderViewsRepository,
  type OrderListFilter,
  type OrderViewRow,
} from './order-views.repository';

/** One line of the order: the receipt's, or (a lone Printify order) the Printify order's. */
export interface OrderExportLine {
  title: string | null;
  sku: string | null;
  quantity: number;
}

/** One order as the CSV export reads it: the list's row, its lines and its current figures' parts (null when not computed or stale). */
export interface OrderExportRow extends OrderViewRow {
  lines: OrderExportLine[];
  /** Per EXPORT_COST_KINDS kind, the display sum (null: no rate); then the Printify display sum, original currency and original sum. */
  costParts: {
    byKind: (number | null)[];
    printifyTotal: number | null;
    printifyOriginal: { currency: string; minor: number } | null;
  } | null;
  /** The conversions used: [from currency, rate, ECB day]. */
  rates: [string, string, string][];
  revenueOriginal: { currency: string; minor: number } | null;
}

/** The longest an export may take (a slow reader included); past it PostgreSQL cancels the cursor. */
const EXPORT_TIMEOUT = '10min';

/** How many rows one FETCH brings: the memory an export holds at once, and its round trips. */
const EXPORT_BATCH_ROWS = 200;

/**
 * A lock per user (ADR 0039): one export at a time across every gateway. Transaction-level,
 * so the export's ROLLBACK, or its connection's end, lets it go; 64-bit key as the user lock's.
 */
const EXPORT_LOCK_SQL = `SELECT pg_try_advisory_xact_lock(hashtextextended('orders_export:' || $1, 0)) AS locked`;

/** The cost kinds the file has a column for, in its order: each Etsy fee kind, then Printify's three. */
export const EXPORT_COST_KINDS = [...FEE_KINDS, 'printify_production', 'printify_shipping', 'printify_tax'] as const;

/**
 * The stored breakdown's cost lines summed in SQL, so the gateway parses a few numbers per order
 * instead of the whole breakdown (its garbage is most of an export's memory): per kind of
 * EXPORT_COST_KINDS, Σ sign × display amount (0 without a line, null when a line has no display
 * amount: no rate); then the Printify lines' display sum (null without one), their original
 * currency and Σ sign × original amount (null when in several currencies).
 */
const COST_PARTS_SQL = `(SELECT json_build_array(${[
  ...EXPORT_COST_KINDS.map(
    (kind) =>
      `CASE WHEN bool_and(c.shown) FILTER (WHERE c.kind = '${kind}') IS FALSE THEN NULL ELSE coalesce(sum(c.amount) FILTER (WHERE c.kind = '${kind}'), 0) END`,
  ),
  `CASE WHEN count(*) FILTER (WHERE c.printify) = 0 OR bool_and(c.shown) FILTER (WHERE c.printify) IS FALSE THEN NULL ELSE sum(c.amount) FILTER (WHERE c.printify) END`,
  `CASE WHEN count(DISTINCT c.currency) FILTER (WHERE c.printify) = 1 THEN min(c.currency) FILTER (WHERE c.printify) END`,
  `CASE WHEN count(DISTINCT c.currency) FILTER (WHERE c.printify) = 1 THEN sum(c.original) FILTER (WHERE c.printify) END`,
].join(', ')})
    FROM (SELECT l ->> 'kind' AS kind, l ->> 'kind' LIKE 'printify\\_%' AS printify,
            jsonb_typeof(l -> 'display') = 'object' AS shown,
            coalesce((l ->> 'sign')::int, 1) * (l -> 'display' ->> 'minor')::bigint AS amount,
            l -> 'original' ->> 'currency' AS currency,
            coalesce((l ->> 'sign')::int, 1) * (l -> 'original' ->> 'minor')::bigint AS original
          FROM jsonb_array_elements(coalesce(p.breakdown -> 'costLines', '[]')) l) c)`;

/** The conversions the lines used into the display currency ($2): [from, rate, ECB day], distinct, sorted. */
const RATES_SQL = `(SELECT jsonb_agg(DISTINCT jsonb_build_array(l -> 'original' ->> 'currency', l ->> 'rate', l ->> 'rateDate'))
    FROM jsonb_array_elements(coalesce(p.breakdown -> 'revenueLines', '[]') || coalesce(p.breakdown -> 'costLines', '[]')) l
    WHERE l ->> 'rate' IS NOT NULL AND l ->> 'rateDate' IS NOT NULL AND l -> 'original' ->> 'currency' <> $2)`;

const LINES_SQL = `,
    CASE WHEN r.etsy_receipt_id IS NOT NULL THEN
      (SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.transaction_id)
         FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.shop_id = r.etsy_shop_id AND l.receipt_id = r.etsy_receipt_id)
    ELSE
      (SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.line_no)
         FROM printify_order_line l WHERE l.user_id = r.user_id AND l.shop_id = r.printify_shop_id AND l.order_id = r.printify_order_id)
    END AS lines,
    CASE WHEN f.fresh THEN ${COST_PARTS_SQL} END AS cost_parts,
    CASE WHEN f.fresh THEN ${RATES_SQL} END AS rates,
    CASE WHEN f.fresh THEN p.breakdown -> 'revenueOriginal' ->> 'currency' END AS revenue_original_currency,
    CASE WHEN f.fresh THEN p.breakdown -> 'revenueOriginal' ->> 'minor' END AS revenue_original_minor`;

/** The statement of an export: the list's rows, filters and order, with the breakdown and lines. */
export function orderExportSql(
  userId: string,
  currency: DisplayCurrencyCode,
  filter: OrderListFilter & { sort: OrderListSort },
): { text: string; values: unknown[] } {
  const values: unknown[] = [userId, currency];
  // recordWhereSql only builds SQL; the repository is never asked to query here.
  const where = new OrderViewsRepository(null as unknown as Db).recordWhereSql(filter, values);
  // The comment names the statement in pg_stat_activity (which keeps only its first 1 kB).
  const text = `/* orders export */ ${orderRowSelectSql('$2', LINES_SQL, true)} WHERE ${where} ${wholeListOrderSql(filter.sort, 'p', 'f.fresh')}`;
  return { text, values };
}

const integerOf = (value: unknown) => (value === null || value === undefined ? null : safeInteger(value));

function exportRowOf(row: Record<string, unknown>): OrderExportRow {
  const parts = row.cost_parts as unknown[] | null;
  const kinds = EXPORT_COST_KINDS.length;
  const printifyCurrency = parts?.[kinds + 1] as string | null | undefined;
  const printifyOriginal = parts ? integerOf(parts[kinds + 2]) : null;
  const revenueCurrency = row.revenue_original_currency as string | null;
  return {
    ...orderViewRowOf(row),
    lines: (row.lines as OrderExportLine[] | null) ?? [],
    costParts: parts
      ? {
          byKind: parts.slice(0, kinds).map(integerOf),
          printifyTotal: integerOf(parts[kinds]),
          printifyOriginal:
            printifyCurrency && printifyOriginal !== null
              ? { currency: printifyCurrency, minor: printifyOriginal }
              : null,
        }
      : null,
    rates: (row.rates as [string, string, string][] | null) ?? [],
    revenueOriginal:
      revenueCurrency && row.revenue_original_minor !== null
        ? { currency: revenueCurrency, minor: safeInteger(row.revenue_original_minor) }
        : null,
  };
}

/**
 * The connection's way back, once: after the last row, the transaction is rolled back (the lock
 * with it) before the export's end is passed on, so the client that has read the whole file can
 * start the next one at once; after an error, or a destroy before the end (the client went
 * away), the connection is discarded instead, which also ends whatever PostgreSQL still runs for it.
 */
function connectionRelease(rows: QueryStream, client: PoolClient): () => Promise<void> {
  let released: Promise<void> | null = null;
  let failed = false;
  const release = (discard: boolean) => {
    released ??= discard
      ? Promise.resolve(client.release(true))
      : client.query('ROLLBACK').then(
          () => client.release(),
          (error: Error) => client.release(error),
        );
    return released;
  };
  rows.once('error', () => {
    failed = true;
  });
  rows.once('close', () => void release(!rows.readableEnded || failed));
  return () => release(failed);
}

/** An export in progress: its rows as an object stream. Destroying it ends the export. */
export interface OrderExportCursor {
  rows: Readable;
}

/**
 * The CSV export's read (GET /api/orders/export): every record the Orders list keeps for the
 * filters, in its order, streamed from a server-side cursor on a connection of its own, in one
 * read-only transaction scoped to the user (row-level security, ADR 0015) that also holds the
 * user's export lock. Memory stays at one batch of rows whatever the number of orders; the
 * stream pauses the cursor when its reader is slow (backpressure). When the stream ends, fails
 * or is destroyed (the client went away), the cursor is closed, the transaction rolled back and
 * the connection returned; a connection whose state is unknown (an error) is discarded instead.
 */
export class OrderExportRepository {
  constructor(private readonly db: Db) {}

  /** The export's rows, or `busy` when the user's other export still runs (nothing is held then). */
  async open(
    userId: string,
    currency: DisplayCurrencyCode,
    filter: OrderListFilter & { sort: OrderListSort },
  ): Promise<OrderExportCursor | 'busy'> {
    const client = await this.pool().connect();
    let rows: QueryStream;
    try {
      // The pool's statement_timeout would count the whole cursor (one statement until its
      // Sync), so a long export gets its own bound. JIT off: the plan's cost (every record's
      // subqueries) makes PostgreSQL compile it first, about a second at 100k orders before
      // the first row, for per-row work (jsonb walks) it barely speeds up (ADR 0039).
      await beginScopedReadOnly(
        client,
        userId,
        ` SET LOCAL statement_timeout = '${EXPORT_TIMEOUT}'; SET LOCAL jit = off`,
      );
      const locked = await client.query<{ locked: boolean }>(EXPORT_LOCK_SQL, [userId]);
      if (locked.rows[0]?.locked !== true) {
        await client.query('ROLLBACK');
        client.release();
        return 'busy';
      }
      const { text, values } = orderExportSql(userId, currency, filter);
      rows = client.query(new QueryStream(text, values, { batchSize: EXPORT_BATCH_ROWS }));
    } catch (error) {
      // A failed START, lock or ROLLBACK leaves the connection's state unknown: throw it away.
      client.release(true);
      throw error;
    }
    const finish = connectionRelease(rows, client);
    const records = new Transform({
      objectMode: true,
      transform(row: Record<string, unknown>, _encoding, done) {
        done(null, exportRowOf(row));
      },
      flush(done) {
        finish().then(() => done(), done);
      },
    });
    // Either side's end, failure or destroy ends both: the cursor never outlives its reader.
    pipeline(rows, records, () => undefined);
    return { rows: records };
  }

  private pool(): Pool {
    const dataSource = this.db instanceof DataSource ? this.db : this.db.connection;
    return (dataSource.driver as unknown as { master: Pool }).master;
  }
}
