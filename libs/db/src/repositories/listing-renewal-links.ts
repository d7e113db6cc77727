import type { Db } from './database-session';
import { writeLedgerLinks } from './ledger-links-by-key';

/**
 * The ledger types of a listing renewed because one of its units sold (integrations.md §a.7,
 * Etsy's Fees & Payments Policy): they reference the listing, not the sale. Renewals of new or
 * expired listings (`listing`, `renew_expired`, …) are shop costs and never attached to an order.
 */
export const SOLD_RENEWAL_TYPES: readonly string[] = ['renew_sold', 'renew_sold_auto'];

interface WaitingRenewal {
  entry_id: string;
  entry_created_at: Date;
  listing_id: string;
}

interface Sale {
  receipt_id: string;
  listing_id: string;
  units: number;
  ordered_at: Date | null;
}

/**
 * Attributes waiting sold-renewal entries to the sale they follow (ADR 0026): same listing, the
 * latest receipt placed at or before the entry that still has a unit without its renewal (a sale
 * of quantity 3 takes up to 3; entries already linked count). Entries are taken in time order,
 * so one that finds its latest sale's units all taken goes on to the next older sale (a receipt
 * paid after a later one was placed renews after it). An entry whose sale is not stored yet
 * stays pending: the receipts stream links again when new receipts arrive, so the sale arriving
 * after its renewal still gets it. Its VAT (`vat_seller_services`, by `parent_entry_id`)
 * follows through the parent links run after this.
 *
 * Three single-table reads (the waiting entries by the pending index, the sales of their
 * listings by the line's listing index, the units already linked by the reference index), the
 * attribution in code, and the links written by key. Done as one joined statement, it was
 * planned on the ledger's statistics, which lag its rows throughout a first sync: planned as a
 * row or two per side, the joins ran as nested loops over every waiting entry × every sale ×
 * every linked unit (2 million comparisons, a second per ledger page at 2,000 orders).
 */
export async function linkSoldRenewals(db: Db, userId: string, shopId: string): Promise<number> {
  const waiting: WaitingRenewal[] = await db.query(
    `SELECT entry_id, entry_created_at, reference_id AS listing_id FROM etsy_ledger_entry
     WHERE user_id = $1 AND shop_id = $2 AND link_pending AND reference_id IS NOT NULL
       AND lower(ledger_type) = ANY($3::text[])`,
    [userId, shopId, SOLD_RENEWAL_TYPES],
  );
  if (waiting.length === 0) return 0;
  const listings = [...new Set(waiting.map((entry) => entry.listing_id))];
  const sales: Sale[] = await db.query(
    `SELECT u.receipt_id, u.listing_id, u.units,
       (SELECT r.ordered_at FROM etsy_receipt r
        WHERE r.user_id = $1 AND r.shop_id = $2 AND r.receipt_id = u.receipt_id) AS ordered_at
     FROM (
       SELECT l.receipt_id, l.listing_id, sum(l.quantity)::int AS units
       FROM etsy_receipt_line l
       WHERE l.user_id = $1 AND l.shop_id = $2 AND l.listing_id = ANY($3::text[])
       GROUP BY l.receipt_id, l.listing_id
     ) u`,
    [userId, shopId, listings],
  );
  const linkedUnits: { receipt_id: string; listing_id: string; units: number }[] = await db.query(
    `SELECT receipt_id, reference_id AS listing_id, count(*)::int AS units FROM etsy_ledger_entry
     WHERE user_id = $1 AND reference_id = ANY($3::text[]) AND shop_id = $2 AND NOT link_pending
       AND receipt_id IS NOT NULL AND lower(ledger_type) = ANY($4::text[])
     GROUP BY receipt_id, reference_id`,
    [userId, shopId, listings, SOLD_RENEWAL_TYPES],
  );
  return writeLedgerLinks(db, userId, shopId, attributeRenewals(waiting, sales, linkedUnits));
}

/** Each waiting entry, oldest first, to the latest sale of its listing at or before it with a unit left. */
function attributeRenewals(
  waiting: readonly WaitingRenewal[],
  sales: readonly Sale[],
  linkedUnits: readonly { receipt_id: string; listing_id: string; units: number }[],
): Map<string, string> {
  const taken = new Map(linkedUnits.map((row) => [saleKey(row.receipt_id, row.listing_id), row.units]));
  const openSales = new Map<string, { receiptId: string; at: number; free: number }[]>();
  for (const sale of sales) {
    if (sale.ordered_at === null) continue;
    const free = sale.units - (taken.get(saleKey(sale.receipt_id, sale.listing_id)) ?? 0);
    if (free <= 0) continue;
    const list = openSales.get(sale.listing_id) ?? [];
    list.push({ receiptId: sale.receipt_id, at: new Date(sale.ordered_at).getTime(), free });
    openSales.set(sale.listing_id, list);
  }
  // Latest first; equal times by the larger receipt id, as Etsy's ids grow with time.
  for (const list of openSales.values()) list.sort((a, b) => b.at - a.at || compareIds(b.receiptId, a.receiptId));
  const byTime = [...waiting].sort(
    (a, b) =>
      new Date(a.entry_created_at).getTime() - new Date(b.entry_created_at).getTime() ||
      compareIds(a.entry_id, b.entry_id),
  );
  const links = new Map<string, string>();
  for (const entry of byTime) {
    const at = new Date(entry.entry_created_at).getTime();
    const sale = openSales.get(entry.listing_id)?.find((open) => open.at <= at && open.free > 0);
    if (!sale) continue;
    sale.free -= 1;
    links.set(entry.entry_id, sale.receiptId);
  }
  return links;
}

function saleKey(receiptId: string, listingId: string): string {
  return `${receiptId}\u0000${listingId}`;
}

/** Numeric ids as numbers (by length, then text), other ids as text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
