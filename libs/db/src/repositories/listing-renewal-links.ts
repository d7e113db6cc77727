import { affectedRows, type Db } from './database-session';

/**
 * The ledger types of a listing renewed because one of its units sold (integrations.md §a.7,
 * Etsy's Fees & Payments Policy): they reference the listing, not the sale. Renewals of new or
 * expired listings (`listing`, `renew_expired`, …) are shop costs and never attached to an order.
 */
export const SOLD_RENEWAL_TYPES: readonly string[] = ['renew_sold', 'renew_sold_auto'];

/** Passes of the statement below per link run: each fills what the previous one left (see there). */
const MAX_PASSES = 8;

/** Sold renewals of this receipt and listing already linked to it. */
const LINKED_TO_SALE = `(SELECT count(*) FROM etsy_ledger_entry done
   WHERE done.user_id = $1 AND done.shop_id = $2 AND done.receipt_id = sale.receipt_id
     AND done.reference_id = sale.listing_id AND NOT done.link_pending AND lower(done.ledger_type) = ANY($3::text[]))`;

/**
 * Attributes waiting sold-renewal entries to the sale they follow (ADR 0026): same listing, the
 * latest receipt placed at or before the entry that still has a unit without its renewal (a sale
 * of quantity 3 takes up to 3; entries already linked count), entries ranked by time within a
 * sale. One set-based statement, run again while it links anything (bounded): entries that lost
 * a sale's last unit to earlier ones take the next older sale at the next pass (a receipt paid
 * after a later one was placed renews after it). An entry whose sale is not stored yet stays
 * pending: the receipts stream links again when new receipts arrive, so the sale arriving after
 * its renewal still gets it. Its VAT (`vat_seller_services`, by `parent_entry_id`) follows
 * through the parent lookup run after this. The line look-up uses etsy_receipt_line_listing_idx.
 */
export async function linkSoldRenewals(db: Db, userId: string, shopId: string): Promise<number> {
  let linked = 0;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const result: unknown = await db.query(
      `WITH candidate AS (
         SELECT e.entry_id, e.entry_created_at, sale.receipt_id, sale.listing_id, sale.free_units
         FROM etsy_ledger_entry e
         CROSS JOIN LATERAL (
           SELECT sale.receipt_id, sale.listing_id, sale.units - ${LINKED_TO_SALE} AS free_units
           FROM (
             SELECT l.receipt_id, l.listing_id, r.ordered_at, sum(l.quantity)::int AS units
             FROM etsy_receipt_line l
             JOIN etsy_receipt r ON r.user_id = l.user_id AND r.shop_id = l.shop_id AND r.receipt_id = l.receipt_id
             WHERE l.user_id = e.user_id AND l.shop_id = e.shop_id AND l.listing_id = e.reference_id
               AND r.ordered_at <= e.entry_created_at
             GROUP BY l.receipt_id, l.listing_id, r.ordered_at
           ) sale
           WHERE sale.units > ${LINKED_TO_SALE}
           ORDER BY sale.ordered_at DESC, sale.receipt_id DESC
           LIMIT 1
         ) sale
         WHERE e.user_id = $1 AND e.shop_id = $2 AND e.link_pending AND e.reference_id IS NOT NULL
           AND lower(e.ledger_type) = ANY($3::text[])
       ),
       ranked AS (
         SELECT c.entry_id, c.receipt_id, c.free_units,
           row_number() OVER (PARTITION BY c.receipt_id, c.listing_id ORDER BY c.entry_created_at, c.entry_id) AS unit_no
         FROM candidate c
       )
       UPDATE etsy_ledger_entry e SET receipt_id = ranked.receipt_id, link_pending = false
       FROM ranked
       WHERE e.user_id = $1 AND e.shop_id = $2 AND e.entry_id = ranked.entry_id AND ranked.unit_no <= ranked.free_units`,
      [userId, shopId, SOLD_RENEWAL_TYPES],
    );
    const passLinked = affectedRows(result);
    linked += passLinked;
    if (passLinked === 0) break;
  }
  return linked;
}
