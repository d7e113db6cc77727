import type {
  CurrencyCode,
  EtsyLedgerEntryInput,
  EtsyPaymentInput,
  EtsyReceiptInput,
  EtsyRefundInput,
  PrintifyOrderInput,
  PrintifySkuHistoryLine,
  MatchStatus,
} from '@pod/domain';
import { ESTIMATE_RECENT_LINES, minorUnitExponent, parseCurrencyCode } from '@pod/domain';
import { minorUnitsTransformer } from '../columns';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';

/** One order record's sides, as the profit writer keys them ("shop:id"). */
export interface ProfitRecordSides {
  id: string;
  receiptKey: string | null;
  printifyKey: string | null;
  /** The record's additional Printify orders (reprints, splits, added by hand), in side order. */
  attachedKeys: string[];
  /** `not_needed` records (digital, canceled, samples) expect no Printify order. */
  status: MatchStatus;
}

/** Everything the profit engine reads for one user, keyed by "shop:id" of the receipt or Printify order. */
export interface UserProfitInputs {
  records: ProfitRecordSides[];
  receipts: Map<string, EtsyReceiptInput>;
  payments: Map<string, EtsyPaymentInput[]>;
  ledgerEntries: Map<string, EtsyLedgerEntryInput[]>;
  printifyOrders: Map<string, PrintifyOrderInput>;
  /** Per Etsy shop id: the currency most of its ledger entries are in, the payment account's (ADR 0026). */
  ledgerCurrencies: Map<string, CurrencyCode>;
  /**
   * The latest Printify lines (not canceled) of each SKU sold on a receipt that has no Printify
   * order yet, newest first, at most ESTIMATE_RECENT_LINES per SKU: what a waiting receipt's
   * estimate reads (ADR 0031).
   */
  printifySkuHistory: PrintifySkuHistoryLine[];
  settings: ProfitInputSettings;
}

/** The seller's profit settings (the Settings page's "Profit settings" card) and the shop's country. */
export interface ProfitInputSettings {
  bankCountry: string | null;
  printifyCostReading: 'per_unit' | 'per_line';
  vatRegistered: boolean;
}

export const sideKey = (shopId: string, id: string) => `${shopId}:${id}`;
const minor = (value: unknown): number => minorUnitsTransformer.from(value) as number;
const minorOrNull = (value: unknown): number | null => (value === null ? null : minor(value));

function push<T>(map: Map<string, T[]>, key: string, value: T) {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * The profit engine's inputs for one user, one set-based statement per table (lines aggregated
 * per order in key order, so the inputs, and their hash, do not depend on the plan). The rows
 * pass through as the engine's input shapes; nothing is computed here.
 */
export class ProfitInputsRepository {
  constructor(private readonly db: Db) {}

  load(userId: string): Promise<UserProfitInputs> {
    return inTenantScope(this.db, userId, (db) => this.read(db, userId));
  }

  private async read(db: Db, userId: string): Promise<UserProfitInputs> {
    const records: {
      id: string;
      etsy_shop_id: string | null;
      etsy_receipt_id: string | null;
      printify_shop_id: string | null;
      printify_order_id: string | null;
      status: MatchStatus;
    }[] = await db.query(
      `SELECT id, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id, status FROM order_record WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
    // Every record's additional Printify orders (issue 17): their costs are the receipt's too.
    const attachedRows: { order_record_id: string; printify_shop_id: string; printify_order_id: string }[] =
      await db.query(
        `SELECT order_record_id, printify_shop_id, printify_order_id FROM order_record_printify_order WHERE user_id = $1
       ORDER BY printify_shop_id COLLATE "C", printify_order_id COLLATE "C"`,
        [userId],
      );
    const attached = new Map<string, string[]>();
    for (const row of attachedRows)
      push(attached, row.order_record_id, sideKey(row.printify_shop_id, row.printify_order_id));
    return {
      records: records.map((row) => ({
        id: row.id,
        receiptKey:
          row.etsy_shop_id !== null && row.etsy_receipt_id !== null
            ? sideKey(row.etsy_shop_id, row.etsy_receipt_id)
            : null,
        printifyKey:
          row.printify_shop_id !== null && row.printify_order_id !== null
            ? sideKey(row.printify_shop_id, row.printify_order_id)
            : null,
        attachedKeys: attached.get(row.id) ?? [],
        status: row.status,
      })),
      receipts: await this.receipts(db, userId),
      ...(await this.paymentsAndLedger(db, userId)),
      printifyOrders: await this.printifyOrders(db, userId),
      ledgerCurrencies: await this.ledgerCurrencies(db, userId),
      printifySkuHistory: await this.printifySkuHistory(db, userId),
      settings: await this.settings(db, userId),
    };
  }

  /**
   * Every receipt with its refunds and lines. The lines are grouped once and joined, not read by
   * a subquery per receipt: on tables without statistics (a first sync's bulk writes before any
   * ANALYZE) the planner probed that subquery through the (user, shop, listing) index and
   * filtered each receipt's lines out of the whole shop's, and a 100k-order seller's read ran
   * past the 30 s statement timeout on every attempt, leaving them without figures (bench:load).
   * Grouped, it is one pass over the user's lines whatever the statistics: 2.4 s there.
   */
  private async receipts(db: Db, userId: string): Promise<Map<string, EtsyReceiptInput>> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT r.shop_id, r.receipt_id, r.status, r.currency, r.ordered_at, r.subtotal_minor, r.total_price_minor, r.total_shipping_minor,
         r.total_tax_minor, r.total_vat_minor, r.gift_wrap_minor, r.refunded_minor, r.is_paid,
         upper(r.payload ->> 'country_iso') AS buyer_country,
         (SELECT coalesce(json_agg(json_build_object('amount', f -> 'amount' ->> 'amount', 'divisor', f -> 'amount' ->> 'divisor',
                   'at', f ->> 'created_timestamp') ORDER BY f ->> 'created_timestamp'), '[]')
          FROM jsonb_array_elements(CASE WHEN jsonb_typeof(r.payload -> 'refunds') = 'array' THEN r.payload -> 'refunds' ELSE '[]' END) f
          WHERE lower(coalesce(f ->> 'status', 'success')) IN ('success', 'succeeded')) AS refunds,
         coalesce(l.lines, '[]') AS lines
       FROM etsy_receipt r
       LEFT JOIN (
         SELECT shop_id, receipt_id,
           json_agg(json_build_object('transactionId', transaction_id, 'listingId', listing_id, 'quantity', quantity, 'sku', sku) ORDER BY transaction_id) AS lines
         FROM etsy_receipt_line WHERE user_id = $1 GROUP BY shop_id, receipt_id
       ) l ON l.shop_id = r.shop_id AND l.receipt_id = r.receipt_id
       WHERE r.user_id = $1`,
      [userId],
    );
    const receipts = new Map<string, EtsyReceiptInput>();
    for (const row of rows) {
      receipts.set(sideKey(String(row.shop_id), String(row.receipt_id)), {
        receiptId: String(row.receipt_id),
        status: String(row.status).toLowerCase(),
        currency: parseCurrencyCode(String(row.currency)),
        orderedAt: new Date(row.ordered_at as string),
        subtotalMinor: minor(row.subtotal_minor),
        totalPriceMinor: minor(row.total_price_minor),
        totalShippingMinor: minor(row.total_shipping_minor),
        totalTaxMinor: minor(row.total_tax_minor),
        totalVatMinor: minorOrNull(row.total_vat_minor),
        giftWrapMinor: minorOrNull(row.gift_wrap_minor),
        refundedMinor: minor(row.refunded_minor),
        isPaid: row.is_paid !== false,
        refunds: refundsOf(row.refunds as RawRefund[], parseCurrencyCode(String(row.currency))),
        buyerCountry: countryOrNull(row.buyer_country),
        lines: row.lines as EtsyReceiptInput['lines'],
      });
    }
    return receipts;
  }

  private async paymentsAndLedger(
    db: Db,
    userId: string,
  ): Promise<Pick<UserProfitInputs, 'payments' | 'ledgerEntries'>> {
    const payments = new Map<string, EtsyPaymentInput[]>();
    const paymentRows: Record<string, unknown>[] = await db.query(
      `SELECT shop_id, receipt_id, payment_id, currency, amount_fees_minor, posted_fees_minor, adjusted_fees_minor
       FROM etsy_payment WHERE user_id = $1 ORDER BY shop_id, payment_id`,
      [userId],
    );
    for (const row of paymentRows) {
      push(payments, sideKey(String(row.shop_id), String(row.receipt_id)), {
        paymentId: String(row.payment_id),
        currency: parseCurrencyCode(String(row.currency)),
        amountFeesMinor: minor(row.amount_fees_minor),
        postedFeesMinor: minorOrNull(row.posted_fees_minor),
        adjustedFeesMinor: minorOrNull(row.adjusted_fees_minor),
      });
    }
    const ledgerEntries = new Map<string, EtsyLedgerEntryInput[]>();
    const ledgerRows: Record<string, unknown>[] = await db.query(
      `SELECT shop_id, receipt_id, entry_id, ledger_type, currency, amount_minor
       FROM etsy_ledger_entry WHERE user_id = $1 AND receipt_id IS NOT NULL ORDER BY shop_id, entry_id`,
      [userId],
    );
    for (const row of ledgerRows) {
      push(ledgerEntries, sideKey(String(row.shop_id), String(row.receipt_id)), {
        entryId: String(row.entry_id),
        ledgerType: String(row.ledger_type),
        currency: parseCurrencyCode(String(row.currency)),
        amountMinor: minor(row.amount_minor),
      });
    }
    return { payments, ledgerEntries };
  }

  private async printifyOrders(db: Db, userId: string): Promise<Map<string, PrintifyOrderInput>> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT o.shop_id, o.order_id, o.status, o.currency, o.ordered_at, o.total_tax_minor,
         coalesce((SELECT json_agg(json_build_object('quantity', l.quantity, 'costMinor', l.cost_minor, 'shippingMinor', l.shipping_minor, 'status', l.status) ORDER BY l.line_no)
                   FROM printify_order_line l WHERE l.user_id = o.user_id AND l.shop_id = o.shop_id AND l.order_id = o.order_id), '[]') AS lines
       FROM printify_order o WHERE o.user_id = $1`,
      [userId],
    );
    const orders = new Map<string, PrintifyOrderInput>();
    for (const row of rows) {
      const lines = (
        row.lines as { quantity: number; costMinor: unknown; shippingMinor: unknown; status: string | null }[]
      ).map((line) => ({
        quantity: line.quantity,
        costMinor: minor(line.costMinor),
        shippingMinor: minor(line.shippingMinor),
        status: line.status,
      }));
      orders.set(sideKey(String(row.shop_id), String(row.order_id)), {
        orderId: String(row.order_id),
        status: String(row.status).toLowerCase(),
        currency: parseCurrencyCode(String(row.currency)),
        orderedAt: new Date(row.ordered_at as string),
        totalTaxMinor: minor(row.total_tax_minor),
        lines,
      });
    }
    return orders;
  }

  /**
   * The SKUs of the receipts without a Printify order (records with a receipt side only), then
   * each one's latest not canceled Printify lines by printify_order_line_sku_idx (the Etsy SKU
   * trimmed, the Printify one as sent; statuses compared normalised, as printifyCosts does). Ordered, so the inputs hash does not depend on the plan.
   */
  private async printifySkuHistory(db: Db, userId: string): Promise<PrintifySkuHistoryLine[]> {
    const rows: Record<string, unknown>[] = await db.query(
      `WITH waiting AS (
         SELECT DISTINCT btrim(el.sku) AS sku FROM order_record r
         JOIN etsy_receipt_line el ON el.user_id = r.user_id AND el.shop_id = r.etsy_shop_id AND el.receipt_id = r.etsy_receipt_id
         WHERE r.user_id = $1 AND r.printify_order_id IS NULL AND r.etsy_receipt_id IS NOT NULL AND btrim(coalesce(el.sku, '')) <> '')
       SELECT h.* FROM waiting w CROSS JOIN LATERAL (
         SELECT w.sku, o.order_id, o.ordered_at, o.currency, l.quantity, l.cost_minor, l.shipping_minor
         FROM printify_order_line l
         JOIN printify_order o ON o.user_id = l.user_id AND o.shop_id = l.shop_id AND o.order_id = l.order_id
         WHERE l.user_id = $1 AND l.sku = w.sku AND l.sku <> '' AND l.quantity > 0
           AND replace(lower(btrim(o.status)), '_', '-') <> 'canceled'
           AND replace(lower(btrim(coalesce(l.status, ''))), '_', '-') <> 'canceled'
         ORDER BY o.ordered_at DESC, o.order_id DESC, l.line_no
         LIMIT $2) h
       ORDER BY h.sku, h.ordered_at DESC, h.order_id DESC`,
      [userId, ESTIMATE_RECENT_LINES],
    );
    return rows.map((row) => ({
      sku: String(row.sku),
      orderId: String(row.order_id),
      orderedAt: new Date(row.ordered_at as string),
      currency: parseCurrencyCode(String(row.currency)),
      quantity: Number(row.quantity),
      costMinor: minor(row.cost_minor),
      shippingMinor: minor(row.shipping_minor),
    }));
  }

  /** Per shop, the currency most of its ledger entries are in (ties: alphabetical), counted in SQL. */
  private async ledgerCurrencies(db: Db, userId: string): Promise<Map<string, CurrencyCode>> {
    const rows: { shop_id: string; currency: string }[] = await db.query(
      `SELECT DISTINCT ON (shop_id) shop_id, currency FROM etsy_ledger_entry WHERE user_id = $1
       GROUP BY shop_id, currency ORDER BY shop_id, count(*) DESC, currency`,
      [userId],
    );
    return new Map(rows.map((row) => [String(row.shop_id), parseCurrencyCode(row.currency)]));
  }

  /**
   * The Etsy shop's country stands in for the bank's (ADR 0010) and is the seller's; the Etsy
   * connection's VAT registration and the Printify connection's cost reading (ADR 0026).
   */
  private async settings(db: Db, userId: string): Promise<ProfitInputSettings> {
    const rows: {
      provider: string;
      shop_country: string | null;
      printify_cost_reading: 'per_unit' | 'per_line';
      vat_registered: boolean;
    }[] = await db.query(
      `SELECT provider, shop_country, printify_cost_reading, vat_registered FROM provider_connection WHERE user_id = $1`,
      [userId],
    );
    const etsy = rows.find((row) => row.provider === 'etsy');
    const printify = rows.find((row) => row.provider === 'printify');
    return {
      bankCountry: etsy?.shop_country?.toUpperCase() ?? null,
      printifyCostReading: printify?.printify_cost_reading ?? 'per_unit',
      vatRegistered: etsy?.vat_registered ?? false,
    };
  }
}

/** A settled `refunds[]` entry as the SQL reads it from the stored payload (Money's amount and divisor, epoch seconds). */
interface RawRefund {
  amount: string | null;
  divisor: string | null;
  at: string | null;
}

/**
 * The refunds with their dates, in minor units of the receipt's currency (amount ÷ divisor, as
 * the receipt's own mapping reads Money). One that does not read as a whole amount and a date is
 * left out: the engine then splits the refunded revenue over the others, or converts it on the
 * order's date if none is left.
 */
function refundsOf(raw: readonly RawRefund[], currency: CurrencyCode): EtsyRefundInput[] {
  const scale = 10 ** minorUnitExponent(currency);
  const refunds: EtsyRefundInput[] = [];
  for (const refund of raw) {
    const amount = Number(refund.amount);
    const divisor = Number(refund.divisor ?? 100);
    const seconds = Number(refund.at);
    if (!Number.isSafeInteger(amount) || !Number.isSafeInteger(divisor) || divisor <= 0) continue;
    if (!Number.isSafeInteger(seconds) || seconds <= 0) continue;
    const amountMinor = (amount * scale) / divisor;
    if (!Number.isSafeInteger(amountMinor)) continue;
    refunds.push({ amountMinor, refundedAt: new Date(seconds * 1000) });
  }
  return refunds;
}

/** The shipping address's `country_iso` when it is an ISO alpha-2 code (Etsy withholds it in some regions). */
function countryOrNull(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Z]{2}$/.test(value) ? value : null;
}
