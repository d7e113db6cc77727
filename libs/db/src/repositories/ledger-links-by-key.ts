import { affectedRows, type Db } from './database-session';

/**
 * Writes receipt links to waiting ledger entries by key, from a list: one statement, a single
 * pass over the listed keys whatever index the planner picks. A correlated lookup or a join
 * here is planned on the ledger's statistics, which lag far behind its rows during a first sync
 * (autovacuum may be off or behind): planned as a handful of rows, each lookup became a scan of
 * the shop's whole ledger (24 ms × every pending entry × every page).
 */
export async function writeLedgerLinks(
  db: Db,
  userId: string,
  shopId: string,
  receiptByEntry: ReadonlyMap<string, string>,
): Promise<number> {
  if (receiptByEntry.size === 0) return 0;
  const result: unknown = await db.query(
    `UPDATE etsy_ledger_entry e SET receipt_id = $3::jsonb ->> e.entry_id, link_pending = false
     WHERE e.user_id = $1 AND e.shop_id = $2 AND e.entry_id = ANY($4::text[]) AND e.link_pending`,
    [userId, shopId, JSON.stringify(Object.fromEntries(receiptByEntry)), [...receiptByEntry.keys()]],
  );
  return affectedRows(result);
}

/** Marks listed waiting entries as done without a receipt (nothing left to wait for). */
export async function stopWaiting(db: Db, userId: string, shopId: string, entryIds: readonly string[]): Promise<void> {
  if (entryIds.length === 0) return;
  await db.query(
    `UPDATE etsy_ledger_entry SET link_pending = false
     WHERE user_id = $1 AND shop_id = $2 AND entry_id = ANY($3::text[]) AND link_pending`,
    [userId, shopId, [...entryIds]],
  );
}

/**
 * VAT on a fee follows the fee (`parent_entry_id`): waiting child entries take their parent's
 * receipt once it has one. A child whose parent is settled without a receipt (an account-level
 * fee: a listing, Etsy Ads) and that references nothing linkable itself stops waiting. The
 * waiting children are read through the pending index, their parents by key, and the links
 * written by key (see writeLedgerLinks for why not a correlated update).
 */
export async function linkChildrenToParents(
  db: Db,
  userId: string,
  shopId: string,
  linkableReferenceTypes: readonly string[],
): Promise<number> {
  const children: { entry_id: string; parent_entry_id: string; reference_type: string | null }[] = await db.query(
    `SELECT entry_id, parent_entry_id, reference_type FROM etsy_ledger_entry
     WHERE user_id = $1 AND shop_id = $2 AND link_pending AND parent_entry_id IS NOT NULL`,
    [userId, shopId],
  );
  if (children.length === 0) return 0;
  const parents: { entry_id: string; receipt_id: string | null; link_pending: boolean }[] = await db.query(
    `SELECT entry_id, receipt_id, link_pending FROM etsy_ledger_entry
     WHERE user_id = $1 AND shop_id = $2 AND entry_id = ANY($3::text[])`,
    [userId, shopId, [...new Set(children.map((child) => child.parent_entry_id))]],
  );
  const parentById = new Map(parents.map((parent) => [parent.entry_id, parent]));
  const receiptByEntry = new Map<string, string>();
  const settled: string[] = [];
  for (const child of children) {
    const parent = parentById.get(child.parent_entry_id);
    if (!parent) continue;
    if (parent.receipt_id !== null) receiptByEntry.set(child.entry_id, parent.receipt_id);
    else if (!parent.link_pending && !isLinkableReference(child.reference_type, linkableReferenceTypes))
      settled.push(child.entry_id);
  }
  const linked = await writeLedgerLinks(db, userId, shopId, receiptByEntry);
  await stopWaiting(db, userId, shopId, settled);
  return linked;
}

function isLinkableReference(referenceType: string | null, linkable: readonly string[]): boolean {
  return referenceType !== null && linkable.includes(referenceType);
}

/**
 * Waiting entries of `referenceType` take the receipt of an entry of the same reference already
 * linked (a refund's processing-fee credit carries no adjustment of its own, its sibling does).
 * Read by the pending index and the reference index, written by key (see writeLedgerLinks).
 */
export async function linkToSiblings(db: Db, userId: string, shopId: string, referenceType: string): Promise<number> {
  const waiting: { entry_id: string; reference_id: string }[] = await db.query(
    `SELECT entry_id, reference_id FROM etsy_ledger_entry
     WHERE user_id = $1 AND shop_id = $2 AND link_pending AND reference_type = $3 AND reference_id IS NOT NULL`,
    [userId, shopId, referenceType],
  );
  if (waiting.length === 0) return 0;
  const siblings: { reference_id: string; receipt_id: string }[] = await db.query(
    `SELECT DISTINCT ON (reference_id) reference_id, receipt_id FROM etsy_ledger_entry
     WHERE user_id = $1 AND reference_id = ANY($4::text[]) AND shop_id = $2 AND reference_type = $3
       AND receipt_id IS NOT NULL
     ORDER BY reference_id, entry_id`,
    [userId, shopId, referenceType, [...new Set(waiting.map((entry) => entry.reference_id))]],
  );
  const receiptByReference = new Map(siblings.map((sibling) => [sibling.reference_id, sibling.receipt_id]));
  const receiptByEntry = new Map<string, string>();
  for (const entry of waiting) {
    const receiptId = receiptByReference.get(entry.reference_id);
    if (receiptId !== undefined) receiptByEntry.set(entry.entry_id, receiptId);
  }
  return writeLedgerLinks(db, userId, shopId, receiptByEntry);
}

/**
 * Real refund entries carry no `payment_adjustments` of their own (etsy/open-api #302): the
 * adjustment they reference is listed in its payment's `payment_adjustments[]` (integrations.md
 * a.6), which names the receipt. One read of the shop's payments for every waiting adjustment id
 * at once, then written by key (a lookup per waiting entry read every payment each time).
 */
export async function linkThroughPaymentAdjustments(db: Db, userId: string, shopId: string): Promise<number> {
  const waiting: { entry_id: string; reference_id: string }[] = await db.query(
    `SELECT entry_id, reference_id FROM etsy_ledger_entry
     WHERE user_id = $1 AND shop_id = $2 AND link_pending AND reference_type = 'payment_adjustment'
       AND reference_id IS NOT NULL`,
    [userId, shopId],
  );
  if (waiting.length === 0) return 0;
  const adjustments: { adjustment_id: string; receipt_id: string }[] = await db.query(
    `SELECT DISTINCT ON (adjustment ->> 'payment_adjustment_id') adjustment ->> 'payment_adjustment_id' AS adjustment_id,
       p.receipt_id
     FROM etsy_payment p
     CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(p.payload -> 'payment_adjustments') = 'array'
       THEN p.payload -> 'payment_adjustments' ELSE '[]'::jsonb END) adjustment
     WHERE p.user_id = $1 AND p.shop_id = $2 AND p.receipt_id IS NOT NULL
       AND adjustment ->> 'payment_adjustment_id' = ANY($3::text[])
     ORDER BY adjustment ->> 'payment_adjustment_id', p.payment_id`,
    [userId, shopId, [...new Set(waiting.map((entry) => entry.reference_id))]],
  );
  const receiptByAdjustment = new Map(adjustments.map((row) => [row.adjustment_id, row.receipt_id]));
  const receiptByEntry = new Map<string, string>();
  for (const entry of waiting) {
    const receiptId = receiptByAdjustment.get(entry.reference_id);
    if (receiptId !== undefined) receiptByEntry.set(entry.entry_id, receiptId);
  }
  return writeLedgerLinks(db, userId, shopId, receiptByEntry);
}
