import { affectedRows, type Db } from './database-session';

/**
 * The ledger types of a listing renewed because one of its units sold (integrations.md §a.7,
 * Etsy's Fees & Payments Policy): they reference the listing, not the sale. Renewals of new or
 * expired listings (`listing`, `renew_expired`, …) are shop costs and never attached to an order.
 */
export const SOLD_RENEWAL_TYPES: readonly string[] = ['renew_sold', 'renew_sold_auto'];

/** Passes of the statement below per link run: each fills what the previous one left (see there). */
const MAX_PASSES = 8;

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
 * The sales of the waiting entries' listings and their linked units are read once per pass and
 * joined (hash join on the listing), not looked up per entry with a count per sale: that
 * per-entry form and an UPDATE joined to the whole statement (which the planner, on a ledger
 * whose statistics lag during a first sync, ran as a scan of the shop's whole ledger per pass)
 * made a first sync of 2,000 orders quadratic: over 120 s. The links are read first, then
 * written by key.
 */
export async function linkSoldRenewals(db: Db, userId: string, shopId: string): Promise<number> {
  let linked = 0;
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    const links: { entry_id: string; receipt_id: string }[] = await db.query(
      `WITH pending AS (
         SELECT e.entry_id, e.entry_created_at, e.reference_id AS listing_id
         FROM etsy_ledger_entry e
         WHERE e.user_id = $1 AND e.shop_id = $2 AND e.link_pending AND e.reference_id IS NOT NULL
           AND lower(e.ledger_type) = ANY($3::text[])
       ),
       listing AS (SELECT DISTINCT listing_id FROM pending),
       -- Lines by the listing index, then each sale's date by the receipt's key: this order
       -- whatever the statistics say (a scalar subquery is never joined the other way round).
       sale_units AS (
         SELECT l.receipt_id, l.listing_id, sum(l.quantity)::int AS units
         FROM etsy_receipt_line l
         WHERE l.user_id = $1 AND l.shop_id = $2 AND l.listing_id = ANY(ARRAY(SELECT listing_id FROM listing))
         GROUP BY l.receipt_id, l.listing_id
       ),
       sale AS MATERIALIZED (
         SELECT u.receipt_id, u.listing_id, u.units,
           (SELECT r.ordered_at FROM etsy_receipt r
            WHERE r.user_id = $1 AND r.shop_id = $2 AND r.receipt_id = u.receipt_id) AS ordered_at
         FROM sale_units u
       ),
       linked AS (
         SELECT done.receipt_id, done.reference_id AS listing_id, count(*)::int AS units
         FROM etsy_ledger_entry done
         WHERE done.user_id = $1 AND done.shop_id = $2 AND NOT done.link_pending AND done.receipt_id IS NOT NULL
           AND done.reference_id = ANY(ARRAY(SELECT listing_id FROM listing)) AND lower(done.ledger_type) = ANY($3::text[])
         GROUP BY done.receipt_id, done.reference_id
       ),
       open_sale AS (
         SELECT sale.receipt_id, sale.listing_id, sale.ordered_at, sale.units - coalesce(linked.units, 0) AS free_units
         FROM sale LEFT JOIN linked ON linked.receipt_id = sale.receipt_id AND linked.listing_id = sale.listing_id
         WHERE sale.units > coalesce(linked.units, 0) AND sale.ordered_at IS NOT NULL
       ),
       candidate AS (
         SELECT DISTINCT ON (p.entry_id) p.entry_id, p.entry_created_at, o.receipt_id, o.listing_id, o.free_units
         FROM pending p
         JOIN open_sale o ON o.listing_id = p.listing_id AND o.ordered_at <= p.entry_created_at
         ORDER BY p.entry_id, o.ordered_at DESC, o.receipt_id DESC
       ),
       ranked AS (
         SELECT c.entry_id, c.receipt_id, c.free_units,
           row_number() OVER (PARTITION BY c.receipt_id, c.listing_id ORDER BY c.entry_created_at, c.entry_id) AS unit_no
         FROM candidate c
       )
       SELECT entry_id, receipt_id FROM ranked WHERE unit_no <= free_units`,
      [userId, shopId, SOLD_RENEWAL_TYPES],
    );
    if (links.length === 0) break;
    // Written by key from the list: one index probe per entry, whatever the planner's statistics.
    const result: unknown = await db.query(
      `UPDATE etsy_ledger_entry e SET receipt_id = link.receipt_id, link_pending = false
       FROM unnest($3::text[], $4::text[]) AS link(entry_id, receipt_id)
       WHERE e.user_id = $1 AND e.shop_id = $2 AND e.entry_id = link.entry_id AND e.link_pending`,
      [userId, shopId, links.map((link) => link.entry_id), links.map((link) => link.receipt_id)],
    );
    const passLinked = affectedRows(result);
    linked += passLinked;
    if (passLinked === 0) break;
  }
  return linked;
}
