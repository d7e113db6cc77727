import { affectedRows, type Db } from './database-session';

/**
 * The ledger types of a listing renewed because one of its units sold (integrations.md §a.7,
 * Etsy's Fees & Payments Policy): they reference the listing, not the sale. Renewals of new or
 * expired listings (`listing`, `renew_expired`, …) are shop costs and never attached to an order.
 */
export const SOLD_RENEWAL_TYPES: readonly string[] = ['renew_sold', 'renew_sold_auto'];

/**
 * Attributes waiting sold-renewal entries to the sale they follow (ADR 0026): same listing, the
 * latest receipt placed at or before the entry, one entry per unit that receipt sold of the
 * listing (a sale of quantity 3 takes up to 3; entries already linked to it count). An entry whose
 * sale is not stored yet, or whose latest sale is full, stays pending: the receipts stream links
 * again when new receipts arrive, so the sale arriving after its renewal still gets it. Its VAT
 * (`vat_seller_services`, by `parent_entry_id`) follows through the parent lookup run after this.
 * One set-based statement; the receipt-line look-up uses etsy_receipt_line_listing_idx.
 */
export async function linkSoldRenewals(db: Db, userId: string, shopId: string): Promise<number> {
  const result: unknown = await db.query(
    `WITH candidate AS (
       SELECT e.entry_id, e.entry_created_at, e.reference_id AS listing_id, sale.receipt_id, sale.units
       FROM etsy_ledger_entry e
       CROSS JOIN LATERAL (
         SELECT l.receipt_id, sum(l.quantity)::int AS units
         FROM etsy_receipt_line l
         JOIN etsy_receipt r ON r.user_id = l.user_id AND r.shop_id = l.shop_id AND r.receipt_id = l.receipt_id
         WHERE l.user_id = e.user_id AND l.shop_id = e.shop_id AND l.listing_id = e.reference_id
           AND r.ordered_at <= e.entry_created_at
         GROUP BY l.receipt_id, r.ordered_at
         ORDER BY r.ordered_at DESC, l.receipt_id DESC
         LIMIT 1
       ) sale
       WHERE e.user_id = $1 AND e.shop_id = $2 AND e.link_pending AND e.reference_id IS NOT NULL
         AND lower(e.ledger_type) = ANY($3::text[])
     ),
     ranked AS (
       SELECT c.entry_id, c.receipt_id, c.units,
         row_number() OVER (PARTITION BY c.receipt_id, c.listing_id ORDER BY c.entry_created_at, c.entry_id)
           + (SELECT count(*) FROM etsy_ledger_entry done
              WHERE done.user_id = $1 AND done.shop_id = $2 AND done.receipt_id = c.receipt_id
                AND done.reference_id = c.listing_id AND NOT done.link_pending
                AND lower(done.ledger_type) = ANY($3::text[])) AS unit_no
       FROM candidate c
     )
     UPDATE etsy_ledger_entry e SET receipt_id = ranked.receipt_id, link_pending = false
     FROM ranked
     WHERE e.user_id = $1 AND e.shop_id = $2 AND e.entry_id = ranked.entry_id AND ranked.unit_no <= ranked.units`,
    [userId, shopId, SOLD_RENEWAL_TYPES],
  );
  return affectedRows(result);
}
