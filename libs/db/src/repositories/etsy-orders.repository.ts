import type { EtsyLedgerEntryEntity, EtsyPaymentEntity, EtsyReceiptEntity, EtsyReceiptLineEntity } from '../entities';
import { affectedRows, type Db } from './database-session';
import { linkChildrenToParents, linkThroughPaymentAdjustments, linkToSiblings } from './ledger-links-by-key';
import { linkSoldRenewals, SOLD_RENEWAL_TYPES } from './listing-renewal-links';
import { inTenantScope } from './tenant-scope';
import { countUpserts, lastPerKey, payloadHash, type UpsertCounts } from './synced-rows';
import { SYNCED_UPSERTS } from './synced-tables';
import type { SyncedRowOf } from './synced-upsert';

/** A receipt's mapped columns; amounts are minor units in `currency` (the shop currency). */
export interface EtsyReceiptRow extends SyncedRowOf<
  EtsyReceiptEntity,
  'userId' | 'shopId' | 'itemCount' | 'payloadHash' | 'fetchedAt' | 'createdAt' | 'updatedAt'
> {
  lines: EtsyReceiptLineRow[];
}

export type EtsyReceiptLineRow = SyncedRowOf<EtsyReceiptLineEntity, 'userId' | 'shopId' | 'receiptId'>;

export type EtsyPaymentRow = SyncedRowOf<
  EtsyPaymentEntity,
  'userId' | 'shopId' | 'payloadHash' | 'fetchedAt' | 'createdAt' | 'updatedAt'
>;

export type EtsyLedgerEntryRow = SyncedRowOf<
  EtsyLedgerEntryEntity,
  'userId' | 'shopId' | 'receiptId' | 'linkPending' | 'payloadHash' | 'createdAt'
>;

/**
 * Where a pending entry's receipt is found, per kind of reference: a scalar subquery on the
 * referenced row's primary key (or the reference index). Scalar subqueries are planned as
 * per-row index lookups on every key column; a join here was planned, on tables fresh
 * enough to have no statistics, as a scan of every row of the shop per pending entry. Lookups
 * into the ledger itself (siblings, parents, sold renewals) read by key lists instead
 * (ledger-links-by-key.ts): its own statistics lag most during a first sync.
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
] as const;

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
      ...row,
      itemCount: row.lines.reduce((sum, line) => sum + line.quantity, 0),
      payloadHash: payloadHash(row.payload),
    }));
    const upsert = SYNCED_UPSERTS.etsyReceipt;
    const written: { key: string; inserted: boolean }[] = await db.query(upsert.sql, [
      userId,
      shopId,
      upsert.recordsetJson(input),
      fetchedAt.toISOString(),
    ]);
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
    );
    if (lines.length === 0) return;
    const upsert = SYNCED_UPSERTS.etsyReceiptLine;
    await db.query(upsert.sql, [userId, shopId, upsert.recordsetJson(lines)]);
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
    const input = rows.map((row) => ({ ...row, payloadHash: payloadHash(row.payload) }));
    const upsert = SYNCED_UPSERTS.etsyPayment;
    const written: { key: string; inserted: boolean }[] = await db.query(upsert.sql, [
      userId,
      shopId,
      upsert.recordsetJson(input),
      fetchedAt.toISOString(),
    ]);
    return countUpserts(written);
  }

  private async writeLedgerEntries(
    db: Db,
    userId: string,
    shopId: string,
    entries: readonly EtsyLedgerEntryRow[],
  ): Promise<UpsertCounts> {
    // Etsy's reference types have no enum (§a.7) and types vary in case: stored trimmed and lower
    // case, so the link pass's lookups find whatever spelling arrived.
    const rows = lastPerKey(entries, (row) => row.entryId).map((row) => ({
      ...row,
      referenceType: row.referenceType?.trim().toLowerCase() || null,
    }));
    if (rows.length === 0) return { added: 0, changed: 0, writtenKeys: [] };
    const input = rows.map((row) => ({ ...row, linkPending: isLinkable(row), payloadHash: payloadHash(row.payload) }));
    const upsert = SYNCED_UPSERTS.etsyLedgerEntry;
    const written: { key: string; inserted: boolean }[] = await db.query(upsert.sql, [
      userId,
      shopId,
      upsert.recordsetJson(input),
    ]);
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
    linked += await linkThroughPaymentAdjustments(db, userId, shopId);
    linked += await linkToSiblings(db, userId, shopId, 'payment_adjustment');
    linked += await linkSoldRenewals(db, userId, shopId);
    // Last: VAT on a fee follows the fee, which the lookups above (and the sold renewals) may just have linked.
    linked += await linkChildrenToParents(db, userId, shopId, LINKABLE_REFERENCE_TYPES);
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
