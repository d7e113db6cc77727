import type {
  CurrencyCode,
  DisplayCurrencyCode,
  AttachmentReason,
  MatchLine,
  MatchStatus,
  PrintifyOrderInput,
  PrintifyOrderToMatch,
  ReceiptToMatch,
  StoredOrderBreakdown,
} from '@pod/domain';
import { DEFAULT_MATCHING_OPTIONS, parseCurrencyCode } from '@pod/domain';
import { minorUnitsTransformer } from '../columns';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { RECORD_SIDES_SQL } from './order-profits.repository';
import { hasTrigram, likeLiteral, SEARCH_TEXT_SQL } from './order-views.repository';
import { safeInteger } from './day-rollups';

export interface ReceiptDetails {
  receiptId: string;
  customerName: string | null;
  orderedAt: Date;
  status: string;
  currency: CurrencyCode;
  grandtotalMinor: number;
  lines: {
    title: string | null;
    sku: string | null;
    quantity: number;
    unitPriceMinor: number;
    currency: CurrencyCode;
  }[];
}

export interface PrintifyOrderDetails {
  orderId: string;
  externalId: string | null;
  status: string;
  currency: CurrencyCode;
  /** Σ line cost, Σ line shipping and the order's tax as stored (the originals, before any reading of `cost`). */
  lineCostMinor: number;
  lineShippingMinor: number;
  taxMinor: number;
  lines: { title: string | null; sku: string | null; quantity: number }[];
}

/** One Printify order of a record as the Order Details dialog lists it, with the engine's input shape for its cost. */
export interface RecordPrintifyOrder {
  role: 'original' | AttachmentReason;
  input: PrintifyOrderInput;
  lines: { title: string | null; sku: string | null; quantity: number }[];
}

/** A record as the manual-match dialog ranks it (domain CandidateRecord). */
export interface CandidateRow {
  id: string;
  status: MatchStatus;
  archived: boolean;
  receipt: ReceiptToMatch | null;
  order: PrintifyOrderToMatch | null;
}

const minor = (value: unknown) => minorUnitsTransformer.from(value) as number;

/** How many records the candidate query hands the ranking at most (nearest in date first). */
const CANDIDATE_POOL = 2_000;
const DAY_MS = 86_400_000;

/** A stored breakdown and the sums of the same order_profit row. */
export interface StoredBreakdownRow {
  breakdown: StoredOrderBreakdown;
  revenueMinor: number | null;
  costsMinor: number | null;
  netProfitMinor: number | null;
}

/**
 * The Order Details dialog's sides and breakdown, and the manual-match dialog's candidates:
 * every read scoped by the user, by primary key or the owner's indexes.
 */
export class OrderDetailsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The stored breakdown for the record's current sides, with the sums stored beside it (the
   * same row, so of the same computation), or null (not computed).
   */
  async breakdown(userId: string, recordId: string, currency: DisplayCurrencyCode): Promise<StoredBreakdownRow | null> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT p.breakdown, p.revenue_minor::text AS revenue_minor, p.costs_minor::text AS costs_minor, p.net_profit_minor::text AS net_profit_minor
         FROM order_record r JOIN order_profit p ON p.order_record_id = r.id AND p.user_id = r.user_id AND p.currency = $3
         WHERE r.user_id = $1 AND r.id = $2 AND p.record_sides = ${RECORD_SIDES_SQL('r')}`,
        [userId, recordId, currency],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    const sum = (value: unknown) => (value === null || value === undefined ? null : safeInteger(value));
    return {
      breakdown: row.breakdown as StoredOrderBreakdown,
      revenueMinor: sum(row.revenue_minor),
      costsMinor: sum(row.costs_minor),
      netProfitMinor: sum(row.net_profit_minor),
    };
  }

  async receipt(userId: string, shopId: string, receiptId: string): Promise<ReceiptDetails | null> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT r.receipt_id, r.buyer_name, r.ordered_at, r.status, r.currency, r.grandtotal_minor,
           coalesce((SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity, 'unitPriceMinor', l.unit_price_minor::text, 'currency', l.currency)
                     ORDER BY l.transaction_id)
                     FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.receipt_id = r.receipt_id AND l.shop_id = r.shop_id), '[]') AS lines
         FROM etsy_receipt r WHERE r.user_id = $1 AND r.shop_id = $2 AND r.receipt_id = $3`,
        [userId, shopId, receiptId],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    return {
      receiptId: String(row.receipt_id),
      customerName: (row.buyer_name as string | null) ?? null,
      orderedAt: new Date(row.ordered_at as string),
      status: String(row.status),
      currency: parseCurrencyCode(String(row.currency)),
      grandtotalMinor: minor(row.grandtotal_minor),
      lines: (
        row.lines as {
          title: string | null;
          sku: string | null;
          quantity: number;
          unitPriceMinor: string;
          currency: string;
        }[]
      ).map((line) => ({
        title: line.title,
        sku: line.sku,
        quantity: line.quantity,
        unitPriceMinor: minor(line.unitPriceMinor),
        currency: parseCurrencyCode(line.currency),
      })),
    };
  }

  async printifyOrder(userId: string, shopId: string, orderId: string): Promise<PrintifyOrderDetails | null> {
    const rows: Record<string, unknown>[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT o.order_id, coalesce(o.shop_order_id, o.shop_order_label) AS external_id, o.status, o.currency, o.line_cost_minor, o.line_shipping_minor, o.total_tax_minor,
           coalesce((SELECT json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.line_no)
                     FROM printify_order_line l WHERE l.user_id = o.user_id AND l.shop_id = o.shop_id AND l.order_id = o.order_id), '[]') AS lines
         FROM printify_order o WHERE o.user_id = $1 AND o.shop_id = $2 AND o.order_id = $3`,
        [userId, shopId, orderId],
      ),
    );
    const row = rows[0];
    if (!row) return null;
    return {
      orderId: String(row.order_id),
      externalId: (row.external_id as string | null) ?? null,
      status: String(row.status),
      currency: parseCurrencyCode(String(row.currency)),
      lineCostMinor: minor(row.line_cost_minor),
      lineShippingMinor: minor(row.line_shipping_minor),
      taxMinor: minor(row.total_tax_minor),
      lines: row.lines as PrintifyOrderDetails['lines'],
    };
  }

  /**
   * Every Printify order of the record (its primary, then the attached ones in id order) with
   * the lines the engine costs, and the user's reading of a line's cost (per unit or per line).
   */
  printifyOrdersOf(
    userId: string,
    recordId: string,
  ): Promise<{ orders: RecordPrintifyOrder[]; costReading: 'per_unit' | 'per_line' }> {
    return inTenantScope(this.db, userId, async (db) => {
      const rows: Record<string, unknown>[] = await db.query(
        `WITH sides AS (
           SELECT 'original' AS role, r.printify_shop_id AS shop_id, r.printify_order_id AS order_id, 0 AS rank
           FROM order_record r WHERE r.user_id = $1 AND r.id = $2 AND r.printify_order_id IS NOT NULL
           UNION ALL
           SELECT a.reason, a.printify_shop_id, a.printify_order_id, 1
           FROM order_record_printify_order a WHERE a.user_id = $1 AND a.order_record_id = $2)
         SELECT s.role, o.order_id, o.status, o.currency, o.ordered_at, o.total_tax_minor,
           coalesce((SELECT json_agg(json_build_object('quantity', l.quantity, 'costMinor', l.cost_minor::text, 'shippingMinor', l.shipping_minor::text,
                       'status', l.status, 'title', l.title, 'sku', l.sku) ORDER BY l.line_no)
                     FROM printify_order_line l WHERE l.user_id = o.user_id AND l.shop_id = o.shop_id AND l.order_id = o.order_id), '[]') AS lines
         FROM sides s JOIN printify_order o ON o.user_id = $1 AND o.shop_id = s.shop_id AND o.order_id = s.order_id
         ORDER BY s.rank, s.shop_id COLLATE "C", s.order_id COLLATE "C"`,
        [userId, recordId],
      );
      const reading: { printify_cost_reading: 'per_unit' | 'per_line' }[] = await db.query(
        `SELECT printify_cost_reading FROM provider_connection WHERE user_id = $1 AND provider = 'printify' LIMIT 1`,
        [userId],
      );
      const orders = rows.map((row): RecordPrintifyOrder => {
        const lines = row.lines as {
          quantity: number;
          costMinor: string;
          shippingMinor: string;
          status: string | null;
          title: string | null;
          sku: string | null;
        }[];
        return {
          role: row.role as RecordPrintifyOrder['role'],
          input: {
            orderId: String(row.order_id),
            status: String(row.status).toLowerCase(),
            currency: parseCurrencyCode(String(row.currency)),
            orderedAt: new Date(row.ordered_at as string),
            totalTaxMinor: minor(row.total_tax_minor),
            lines: lines.map((line) => ({
              quantity: line.quantity,
              costMinor: minor(line.costMinor),
              shippingMinor: minor(line.shippingMinor),
              status: line.status,
            })),
          },
          lines: lines.map((line) => ({ title: line.title, sku: line.sku, quantity: line.quantity })),
        };
      });
      return { orders, costReading: reading[0]?.printify_cost_reading ?? 'per_unit' };
    });
  }

  /**
   * The record and the records that could pair with it by hand (spec §5: not matched, not
   * archived, only the side it lacks), nearest in date first, at most CANDIDATE_POOL of them;
   * the ranking is the domain's. Orders that need no fulfilment (status not_needed: digital
   * downloads, samples) are never offered (issue 18). Without a search only those inside the
   * matcher's date window (a day wider each way: the domain measures whole days) through
   * order_record_status_idx; with one, the search's hits at any date (order_search_hits, as the
   * Orders page searches). Null when the record is not the user's.
   */
  candidatePool(
    userId: string,
    recordId: string,
    search: string | null,
  ): Promise<{ selected: CandidateRow; others: CandidateRow[] } | null> {
    return inTenantScope(this.db, userId, (db) => this.candidates(db, userId, recordId, search));
  }

  private async candidates(
    db: Db,
    userId: string,
    recordId: string,
    search: string | null,
  ): Promise<{ selected: CandidateRow; others: CandidateRow[] } | null> {
    const selected = await this.candidateRows(db, userId, `r.id = $2`, 'r.id', [recordId], 1);
    if (!selected[0]) return null;
    const self = selected[0];
    // A receipt (with or without its Printify order: issue 17) takes lone Printify orders; a lone
    // Printify order, not matched, lone receipts (rankManualCandidates applies the rule).
    if (self.archived || (!self.receipt && self.status === 'matched')) return { selected: self, others: [] };
    const wants = self.receipt
      ? `r.printify_order_id IS NOT NULL AND r.etsy_receipt_id IS NULL`
      : `r.etsy_receipt_id IS NOT NULL AND r.printify_order_id IS NULL`;
    const anchor = (self.receipt ?? self.order)?.orderedAt ?? new Date(0);
    const params: unknown[] = [recordId, anchor];
    let narrowing: string;
    if (search === null) {
      const { maxDaysBefore, maxDaysAfter } = DEFAULT_MATCHING_OPTIONS;
      // The Printify order may be placed up to maxDaysAfter after the receipt, maxDaysBefore before it.
      const [before, after] = self.receipt ? [maxDaysBefore, maxDaysAfter] : [maxDaysAfter, maxDaysBefore];
      params.push(
        new Date(anchor.getTime() - (before + 1) * DAY_MS),
        new Date(anchor.getTime() + (after + 1) * DAY_MS),
      );
      narrowing = `r.order_date BETWEEN $4 AND $5`;
    } else if (hasTrigram(search)) {
      params.push(search);
      narrowing = `r.id IN (SELECT h.id FROM order_search_hits($4) h WHERE h.archived_at IS NULL AND h.status IN ('pending', 'unmatched'))`;
    } else {
      params.push(`%${likeLiteral(search)}%`);
      narrowing = `${SEARCH_TEXT_SQL} ILIKE $4`;
    }
    const others = await this.candidateRows(
      db,
      userId,
      `${wants} AND r.status IN ('pending', 'unmatched') AND r.archived_at IS NULL AND r.id <> $2 AND ${narrowing}`,
      `abs(extract(epoch FROM (coalesce(r.order_date, 'epoch') - $3::timestamptz))), r.id`,
      params,
      CANDIDATE_POOL,
    );
    return { selected: self, others };
  }

  private async candidateRows(
    db: Db,
    userId: string,
    condition: string,
    orderBy: string,
    params: unknown[],
    limit: number,
  ): Promise<CandidateRow[]> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT r.id, r.status, r.archived_at IS NOT NULL AS archived, r.etsy_shop_id, r.etsy_receipt_id, r.printify_shop_id, r.printify_order_id,
         e.buyer_name AS e_buyer, e.ordered_at AS e_at,
         (SELECT coalesce(json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.transaction_id), '[]')
            FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.receipt_id = r.etsy_receipt_id AND l.shop_id = r.etsy_shop_id) AS e_lines,
         o.buyer_name AS o_buyer, o.ordered_at AS o_at, o.shop_order_id, o.shop_order_label, o.is_reprint,
         (SELECT coalesce(json_agg(json_build_object('title', l.title, 'sku', l.sku, 'quantity', l.quantity) ORDER BY l.line_no), '[]')
            FROM printify_order_line l WHERE l.user_id = r.user_id AND l.shop_id = r.printify_shop_id AND l.order_id = r.printify_order_id) AS o_lines
       FROM order_record r
       LEFT JOIN etsy_receipt e ON e.user_id = r.user_id AND e.shop_id = r.etsy_shop_id AND e.receipt_id = r.etsy_receipt_id
       LEFT JOIN printify_order o ON o.user_id = r.user_id AND o.shop_id = r.printify_shop_id AND o.order_id = r.printify_order_id
       WHERE r.user_id = $1 AND ${condition} ORDER BY ${orderBy} LIMIT ${Number(limit)}`,
      [userId, ...params],
    );
    return rows.map((row) => ({
      id: String(row.id),
      status: row.status as CandidateRow['status'],
      archived: row.archived === true,
      receipt:
        row.etsy_receipt_id !== null && row.e_at
          ? {
              shopId: String(row.etsy_shop_id),
              receiptId: String(row.etsy_receipt_id),
              buyerName: (row.e_buyer as string | null) ?? null,
              orderedAt: new Date(row.e_at as string),
              lines: row.e_lines as MatchLine[],
            }
          : null,
      order:
        row.printify_order_id !== null && row.o_at
          ? {
              shopId: String(row.printify_shop_id),
              orderId: String(row.printify_order_id),
              shopOrderId: (row.shop_order_id as string | null) ?? null,
              shopOrderLabel: (row.shop_order_label as string | null) ?? null,
              isReprint: row.is_reprint === true,
              buyerName: (row.o_buyer as string | null) ?? null,
              orderedAt: new Date(row.o_at as string),
              lines: row.o_lines as MatchLine[],
            }
          : null,
    }));
  }
}
