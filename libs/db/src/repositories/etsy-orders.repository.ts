import type { CurrencyCode } from '@pod/domain';
import { affectedRows, type Db } from './database-session';
import { linkSoldRenewals, SOLD_RENEWAL_TYPES } from './listing-renewal-links';
import { inTenantScope } from './tenant-scope';
import { countUpserts, jsonForPostgres, lastPerKey, payloadHash, type UpsertCounts } from './synced-rows';

/** A receipt's mapped columns; amounts are minor units in `currency` (the shop currency). */
export interface EtsyReceiptRow {
  receiptId: string;
  status: string;
  isPaid: boolean;
  isShipped: boolean;
  buyerName: string | null;
  buyerUserId: string | null;
  zip: string | null;
  countryIso: string | null;
  currency: CurrencyCode;
  grandtotalMinor: number;
  subtotalMinor: number;
  totalPriceMinor: number;
  totalShippingMinor: number;
  totalTaxMinor: number;
  totalVatMinor: number | null;
  discountMinor: number | null;
  giftWrapMinor: number | null;
  refundedMinor: number;
  orderedAt: Date;
  sourceUpdatedAt: Date;
  lines: EtsyReceiptLineRow[];
  payload: unknown;
}

export interface EtsyReceiptLineRow {
  transactionId: string;
  listingId: string | null;
  productId: string | null;
  title: string | null;
  sku: string | null;
  quantity: number;
  currency: CurrencyCode;
  unitPriceMinor: number;
  shippingMinor: number | null;
  isDigital: boolean;
}

export interface EtsyPaymentRow {
  paymentId: string;
  receiptId: string;
  currency: CurrencyCode;
  amountGrossMinor: number;
  amountFeesMinor: number;
  amountNetMinor: number;
  postedGrossMinor: number | null;
  postedFeesMinor: number | null;
  postedNetMinor: number | null;
  adjustedGrossMinor: number | null;
  adjustedFeesMinor: number | null;
  adjustedNetMinor: number | null;
  status: string | null;
  sourceUpdatedAt: Date | null;
  payload: unknown;
}

export interface EtsyLedgerEntryRow {
  entryId: string;
  ledgerType: string;
  referenceType: string | null;
  referenceId: string | null;
  parentEntryId: string | null;
  currency: CurrencyCode;
  amountMinor: number;
  entryCreatedAt: Date;
  payload: unknown;
}

/**
 * Where a pending entry's receipt is found, per kind of reference: a scalar subquery on the
 * referenced row's primary key (or the reference index). Scalar subqueries are planned as
 * per-row index lookups on every key column; a join here was planned, on tables fresh
 * enough to have no statistics, as a scan of every row of the shop per pending entry.
 */
const LINK_LOOKUPS = [
  {
    kind: `e.reference_type = 'transaction'`,
    receipt: `(SELECT src.receipt_id FROM etsy_receipt_line src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id AND src.transaction_id = e.reference_id)`,
  },
  {
    kind: `e.reference_type = 'receipt'`,
    receipt: `(SELECT src.receipt_id FROM etsy_receipt src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id AND src.receipt_id = e.reference_id)`,
  },
  {
    kind: `e.reference_type = 'shop_payment'`,
    receipt: `(SELECT src.receipt_id FROM etsy_payment src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id AND src.payment_id = e.reference_id)`,
  },
  {
    kind: `e.reference_type = 'payment_adjustment'`,
    receipt: `(SELECT src.receipt_id FROM etsy_payment src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id
                AND src.payment_id = e.payload -> 'payment_adjustments' -> 0 ->> 'payment_id')`,
  },
  // An entry of the same reference already linked (a refund's processing-fee credit carries no adjustment of its own).
  {
    kind: `e.reference_type = 'payment_adjustment'`,
    receipt: `(SELECT src.receipt_id FROM etsy_ledger_entry src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id
                AND src.reference_id = e.reference_id AND src.reference_type = e.reference_type AND src.receipt_id IS NOT NULL LIMIT 1)`,
  },
] as const;

/** Last: VAT on a fee follows the fee, which the lookups above (and the sold renewals) may just have linked. */
const PARENT_LOOKUP = {
  kind: `e.parent_entry_id IS NOT NULL`,
  receipt: `(SELECT src.receipt_id FROM etsy_ledger_entry src WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id AND src.entry_id = e.parent_entry_id)`,
} as const;

/** Reference types whose entry belongs to one receipt once the referenced row is known. */
const LINKABLE_REFERENCE_TYPES = ['transaction', 'receipt', 'shop_payment', 'payment_adjustment'];

/**
 * The synced Etsy rows of one user and shop. Writes are upserts by natural key that only a newer
 * source version overwrites (an unchanged record writes nothing, not even `updated_at`), in key
 * order; reads are scoped by the owner.
 */
export class EtsyOrdersRepository {
  constructor(private readonly db: Db) {}

  /** Upserts receipts and replaces the lines of those that were inserted or changed. */
  upsertReceipts(
    userId: string,
    shopId: string,
    receipts: readonly EtsyReceiptRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    return inTenantScope(this.db, userId, (db) => this.writeReceipts(db, userId, shopId, receipts, fetchedAt));
  }

  upsertPayments(
    userId: string,
    shopId: string,
    payments: readonly EtsyPaymentRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    return inTenantScope(this.db, userId, (db) => this.writePayments(db, userId, shopId, payments, fetchedAt));
  }

  /** Ledger entries are immutable at Etsy (stable ids): an entry is written once, again only if its payload differs. */
  upsertLedgerEntries(userId: string, shopId: string, entries: readonly EtsyLedgerEntryRow[]): Promise<UpsertCounts> {
    return inTenantScope(this.db, userId, (db) => this.writeLedgerEntries(db, userId, shopId, entries));
  }

  private async writeReceipts(
    db: Db,
    userId: string,
    shopId: string,
    receipts: readonly EtsyReceiptRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    const rows = lastPerKey(receipts, (row) => row.receiptId);
    if (rows.length === 0) return { added: 0, changed: 0, writtenKeys: [] };
    const input = rows.map((row) => ({
      receipt_id: row.receiptId,
      status: row.status,
      is_paid: row.isPaid,
      is_shipped: row.isShipped,
      buyer_name: row.buyerName,
      buyer_user_id: row.buyerUserId,
      zip: row.zip,
      country_iso: row.countryIso,
      currency: row.currency,
      grandtotal_minor: row.grandtotalMinor,
      subtotal_minor: row.subtotalMinor,
      total_price_minor: row.totalPriceMinor,
      total_shipping_minor: row.totalShippingMinor,
      total_tax_minor: row.totalTaxMinor,
      total_vat_minor: row.totalVatMinor,
      discount_minor: row.discountMinor,
      gift_wrap_minor: row.giftWrapMinor,
      refunded_minor: row.refundedMinor,
      item_count: row.lines.reduce((sum, line) => sum + line.quantity, 0),
      ordered_at: row.orderedAt.toISOString(),
      source_updated_at: row.sourceUpdatedAt.toISOString(),
      payload: row.payload,
      payload_hash: payloadHash(row.payload),
    }));
    const written: { key: string; inserted: boolean }[] = await db.query(
      `INSERT INTO etsy_receipt (user_id, shop_id, receipt_id, status, is_paid, is_shipped, buyer_name, buyer_user_id, zip, country_iso,
         currency, grandtotal_minor, subtotal_minor, total_price_minor, total_shipping_minor, total_tax_minor, total_vat_minor,
         discount_minor, gift_wrap_minor, refunded_minor, item_count, ordered_at, source_updated_at, payload, payload_hash, fetched_at)
       SELECT $1, $2, r.receipt_id, r.status, r.is_paid, r.is_shipped, r.buyer_name, r.buyer_user_id, r.zip, r.country_iso,
         r.currency, r.grandtotal_minor, r.subtotal_minor, r.total_price_minor, r.total_shipping_minor, r.total_tax_minor, r.total_vat_minor,
         r.discount_minor, r.gift_wrap_minor, r.refunded_minor, r.item_count, r.ordered_at, r.source_updated_at, r.payload, r.payload_hash, $4
       FROM jsonb_to_recordset($3::jsonb) AS r(receipt_id text, status text, is_paid boolean, is_shipped boolean, buyer_name text,
         buyer_user_id text, zip text, country_iso text, currency text, grandtotal_minor bigint, subtotal_minor bigint,
         total_price_minor bigint, total_shipping_minor bigint, total_tax_minor bigint, total_vat_minor bigint, discount_minor bigint,
         gift_wrap_minor bigint, refunded_minor bigint, item_count integer, ordered_at timestamptz, source_updated_at timestamptz,
         payload jsonb, payload_hash text)
       ON CONFLICT (user_id, shop_id, receipt_id) DO UPDATE SET
         status = EXCLUDED.status, is_paid = EXCLUDED.is_paid, is_shipped = EXCLUDED.is_shipped, buyer_name = EXCLUDED.buyer_name,
         buyer_user_id = EXCLUDED.buyer_user_id, zip = EXCLUDED.zip, country_iso = EXCLUDED.country_iso, currency = EXCLUDED.currency,
         grandtotal_minor = EXCLUDED.grandtotal_minor, subtotal_minor = EXCLUDED.subtotal_minor, total_price_minor = EXCLUDED.total_price_minor,
         total_shipping_minor = EXCLUDED.total_shipping_minor, total_tax_minor = EXCLUDED.total_tax_minor,
         total_vat_minor = EXCLUDED.total_vat_minor, discount_minor = EXCLUDED.discount_minor, gift_wrap_minor = EXCLUDED.gift_wrap_minor,
         refunded_minor = EXCLUDED.refunded_minor, item_count = EXCLUDED.item_count, ordered_at = EXCLUDED.ordered_at,
         source_updated_at = EXCLUDED.source_updated_at, payload = EXCLUDED.payload, payload_hash = EXCLUDED.payload_hash,
         fetched_at = EXCLUDED.fetched_at, updated_at = now()
       WHERE EXCLUDED.source_updated_at > etsy_receipt.source_updated_at
          OR (EXCLUDED.source_updated_at = etsy_receipt.source_updated_at AND EXCLUDED.payload_hash <> etsy_receipt.payload_hash
              AND EXCLUDED.fetched_at >= etsy_receipt.fetched_at)
       RETURNING receipt_id AS key, (xmax = 0) AS inserted`,
      [userId, shopId, jsonForPostgres(input), fetchedAt.toISOString()],
    );
    const counts = countUpserts(written);
    await this.replaceLines(
      db,
      userId,
      shopId,
      rows.filter((row) => counts.writtenKeys.includes(row.receiptId)),
    );
    return counts;
  }

  private async replaceLines(
    db: Db,
    userId: string,
    shopId: string,
    receipts: readonly EtsyReceiptRow[],
  ): Promise<void> {
    if (receipts.length === 0) return;
    await db.query(
      `DELETE FROM etsy_receipt_line WHERE user_id = $1 AND shop_id = $2 AND receipt_id = ANY($3::text[])`,
      [userId, shopId, receipts.map((row) => row.receiptId)],
    );
    const lines = lastPerKey(
      receipts.flatMap((receipt) => receipt.lines.map((line) => ({ ...line, receiptId: receipt.receiptId }))),
      (line) => line.transactionId,
    ).map((line) => ({
      transaction_id: line.transactionId,
      receipt_id: line.receiptId,
      listing_id: line.listingId,
      product_id: line.productId,
      title: line.title,
      sku: line.sku,
      quantity: line.quantity,
      currency: line.currency,
      unit_price_minor: line.unitPriceMinor,
      shipping_minor: line.shippingMinor,
      is_digital: line.isDigital,
    }));
    if (lines.length === 0) return;
    // A transaction re-listed under another receipt (never seen, but ids are Etsy's) moves with it.
    await db.query(
      `INSERT INTO etsy_receipt_line (user_id, shop_id, transaction_id, receipt_id, listing_id, product_id, title, sku, quantity,
         currency, unit_price_minor, shipping_minor, is_digital)
       SELECT $1, $2, l.transaction_id, l.receipt_id, l.listing_id, l.product_id, l.title, l.sku, l.quantity, l.currency,
         l.unit_price_minor, l.shipping_minor, l.is_digital
       FROM jsonb_to_recordset($3::jsonb) AS l(transaction_id text, receipt_id text, listing_id text, product_id text, title text,
         sku text, quantity integer, currency text, unit_price_minor bigint, shipping_minor bigint, is_digital boolean)
       ON CONFLICT (user_id, shop_id, transaction_id) DO UPDATE SET receipt_id = EXCLUDED.receipt_id, listing_id = EXCLUDED.listing_id,
         product_id = EXCLUDED.product_id, title = EXCLUDED.title, sku = EXCLUDED.sku, quantity = EXCLUDED.quantity,
         currency = EXCLUDED.currency, unit_price_minor = EXCLUDED.unit_price_minor, shipping_minor = EXCLUDED.shipping_minor,
         is_digital = EXCLUDED.is_digital`,
      [userId, shopId, jsonForPostgres(lines)],
    );
  }

  private async writePayments(
    db: Db,
    userId: string,
    shopId: string,
    payments: readonly EtsyPaymentRow[],
    fetchedAt: Date,
  ): Promise<UpsertCounts> {
    const rows = lastPerKey(payments, (row) => row.paymentId);
    if (rows.length === 0) return { added: 0, changed: 0, writtenKeys: [] };
    const input = rows.map((row) => ({
      payment_id: row.paymentId,
      receipt_id: row.receiptId,
      currency: row.currency,
      amount_gross_minor: row.amountGrossMinor,
      amount_fees_minor: row.amountFeesMinor,
      amount_net_minor: row.amountNetMinor,
      posted_gross_minor: row.postedGrossMinor,
      posted_fees_minor: row.postedFeesMinor,
      posted_net_minor: row.postedNetMinor,
      adjusted_gross_minor: row.adjustedGrossMinor,
      adjusted_fees_minor: row.adjustedFeesMinor,
      adjusted_net_minor: row.adjustedNetMinor,
      status: row.status,
      source_updated_at: row.sourceUpdatedAt?.toISOString() ?? null,
      payload: row.payload,
      payload_hash: payloadHash(row.payload),
    }));
    const written: { key: string; inserted: boolean }[] = await db.query(
      `INSERT INTO etsy_payment (user_id, shop_id, payment_id, receipt_id, currency, amount_gross_minor, amount_fees_minor, amount_net_minor,
         posted_gross_minor, posted_fees_minor, posted_net_minor, adjusted_gross_minor, adjusted_fees_minor, adjusted_net_minor,
         status, source_updated_at, payload, payload_hash, fetched_at)
       SELECT $1, $2, p.payment_id, p.receipt_id, p.currency, p.amount_gross_minor, p.amount_fees_minor, p.amount_net_minor,
         p.posted_gross_minor, p.posted_fees_minor, p.posted_net_minor, p.adjusted_gross_minor, p.adjusted_fees_minor, p.adjusted_net_minor,
         p.status, p.source_updated_at, p.payload, p.payload_hash, $4
       FROM jsonb_to_recordset($3::jsonb) AS p(payment_id text, receipt_id text, currency text, amount_gross_minor bigint,
         amount_fees_minor bigint, amount_net_minor bigint, posted_gross_minor bigint, posted_fees_minor bigint, posted_net_minor bigint,
         adjusted_gross_minor bigint, adjusted_fees_minor bigint, adjusted_net_minor bigint, status text, source_updated_at timestamptz,
         payload jsonb, payload_hash text)
       ON CONFLICT (user_id, shop_id, payment_id) DO UPDATE SET
         receipt_id = EXCLUDED.receipt_id, currency = EXCLUDED.currency, amount_gross_minor = EXCLUDED.amount_gross_minor,
         amount_fees_minor = EXCLUDED.amount_fees_minor, amount_net_minor = EXCLUDED.amount_net_minor,
         posted_gross_minor = EXCLUDED.posted_gross_minor, posted_fees_minor = EXCLUDED.posted_fees_minor,
         posted_net_minor = EXCLUDED.posted_net_minor, adjusted_gross_minor = EXCLUDED.adjusted_gross_minor,
         adjusted_fees_minor = EXCLUDED.adjusted_fees_minor, adjusted_net_minor = EXCLUDED.adjusted_net_minor, status = EXCLUDED.status,
         source_updated_at = EXCLUDED.source_updated_at, payload = EXCLUDED.payload, payload_hash = EXCLUDED.payload_hash,
         fetched_at = EXCLUDED.fetched_at, updated_at = now()
       WHERE EXCLUDED.payload_hash <> etsy_payment.payload_hash
         AND (EXCLUDED.source_updated_at IS NULL OR etsy_payment.source_updated_at IS NULL OR EXCLUDED.source_updated_at > etsy_payment.source_updated_at
              OR (EXCLUDED.source_updated_at = etsy_payment.source_updated_at AND EXCLUDED.fetched_at >= etsy_payment.fetched_at))
       RETURNING payment_id AS key, (xmax = 0) AS inserted`,
      [userId, shopId, jsonForPostgres(input), fetchedAt.toISOString()],
    );
    return countUpserts(written);
  }

  private async writeLedgerEntries(
    db: Db,
    userId: string,
    shopId: string,
    entries: readonly EtsyLedgerEntryRow[],
  ): Promise<UpsertCounts> {
    const rows = lastPerKey(entries, (row) => row.entryId);
    if (rows.length === 0) return { added: 0, changed: 0, writtenKeys: [] };
    const input = rows.map((row) => ({
      entry_id: row.entryId,
      ledger_type: row.ledgerType,
      reference_type: row.referenceType,
      reference_id: row.referenceId,
      parent_entry_id: row.parentEntryId,
      currency: row.currency,
      amount_minor: row.amountMinor,
      entry_created_at: row.entryCreatedAt.toISOString(),
      link_pending: isLinkable(row),
      payload: row.payload,
      payload_hash: payloadHash(row.payload),
    }));
    const written: { key: string; inserted: boolean }[] = await db.query(
      `INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, reference_type, reference_id, parent_entry_id, currency,
         amount_minor, entry_created_at, link_pending, payload, payload_hash)
       SELECT $1, $2, e.entry_id, e.ledger_type, e.reference_type, e.reference_id, e.parent_entry_id, e.currency, e.amount_minor,
         e.entry_created_at, e.link_pending, e.payload, e.payload_hash
       FROM jsonb_to_recordset($3::jsonb) AS e(entry_id text, ledger_type text, reference_type text, reference_id text,
         parent_entry_id text, currency text, amount_minor bigint, entry_created_at timestamptz, link_pending boolean, payload jsonb,
         payload_hash text)
       ON CONFLICT (user_id, shop_id, entry_id) DO UPDATE SET
         ledger_type = EXCLUDED.ledger_type, reference_type = EXCLUDED.reference_type, reference_id = EXCLUDED.reference_id,
         parent_entry_id = EXCLUDED.parent_entry_id, currency = EXCLUDED.currency, amount_minor = EXCLUDED.amount_minor,
         entry_created_at = EXCLUDED.entry_created_at, payload = EXCLUDED.payload, payload_hash = EXCLUDED.payload_hash,
         receipt_id = NULL, link_pending = EXCLUDED.link_pending
       WHERE EXCLUDED.payload_hash <> etsy_ledger_entry.payload_hash
       RETURNING entry_id AS key, (xmax = 0) AS inserted`,
      [userId, shopId, jsonForPostgres(input)],
    );
    return countUpserts(written);
  }

  /**
   * Links waiting ledger entries to their receipt through what they reference: a transaction
   * (its receipt line), a receipt, a payment, a payment adjustment (its payment), or a parent
   * entry (VAT on a fee). Entries whose referenced row has not arrived stay pending.
   */
  linkPendingLedgerEntries(userId: string, shopId: string): Promise<number> {
    return inTenantScope(this.db, userId, (db) => this.linkLedgerEntries(db, userId, shopId));
  }

  private async linkLedgerEntries(db: Db, userId: string, shopId: string): Promise<number> {
    let linked = 0;
    for (const lookup of LINK_LOOKUPS) linked += await this.linkBy(db, userId, shopId, lookup);
    linked += await linkSoldRenewals(db, userId, shopId);
    linked += await this.linkBy(db, userId, shopId, PARENT_LOOKUP);
    // VAT on an account-level fee (a listing, Etsy Ads) has no receipt to wait for: stop looking.
    await db.query(
      `UPDATE etsy_ledger_entry e SET link_pending = false
       WHERE e.user_id = $1 AND e.shop_id = $2 AND e.link_pending AND e.parent_entry_id IS NOT NULL
         AND (e.reference_type IS NULL OR e.reference_type <> ALL($3::text[]))
         AND (SELECT NOT src.link_pending AND src.receipt_id IS NULL FROM etsy_ledger_entry src
              WHERE src.user_id = e.user_id AND src.shop_id = e.shop_id AND src.entry_id = e.parent_entry_id)`,
      [userId, shopId, LINKABLE_REFERENCE_TYPES],
    );
    return linked;
  }

  private async linkBy(db: Db, userId: string, shopId: string, lookup: { kind: string; receipt: string }) {
    const result: unknown = await db.query(
      `UPDATE etsy_ledger_entry e SET receipt_id = ${lookup.receipt}, link_pending = false
       WHERE e.user_id = $1 AND e.shop_id = $2 AND e.link_pending AND ${lookup.kind} AND ${lookup.receipt} IS NOT NULL`,
      [userId, shopId],
    );
    return affectedRows(result);
  }

  /** Payment ids already stored among `paymentIds` (the ledger stream fetches only the others). */
  async knownPaymentIds(userId: string, shopId: string, paymentIds: readonly string[]): Promise<Set<string>> {
    if (paymentIds.length === 0) return new Set();
    const rows: { payment_id: string }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT payment_id FROM etsy_payment WHERE user_id = $1 AND shop_id = $2 AND payment_id = ANY($3::text[])`,
        [userId, shopId, [...paymentIds]],
      ),
    );
    return new Set(rows.map((row) => row.payment_id));
  }

  /** When the shop's oldest stored receipt was placed (where the ledger's first pass starts), or null. */
  async oldestReceiptAt(userId: string, shopId: string): Promise<Date | null> {
    const rows: { oldest: Date | null }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(`SELECT min(ordered_at) AS oldest FROM etsy_receipt WHERE user_id = $1 AND shop_id = $2`, [
        userId,
        shopId,
      ]),
    );
    return rows[0]?.oldest ?? null;
  }
}

function isLinkable(row: EtsyLedgerEntryRow): boolean {
  if (row.parentEntryId !== null && row.parentEntryId !== '0') return true;
  // A sold renewal waits for the sale it follows (linkSoldRenewals).
  if (row.referenceId !== null && SOLD_RENEWAL_TYPES.includes(row.ledgerType.trim().toLowerCase())) return true;
  return (
    row.referenceType !== null &&
    LINKABLE_REFERENCE_TYPES.includes(row.referenceType.toLowerCase()) &&
    row.referenceId !== null
  );
}
