import { daysBefore } from '../calendar';
import { describeRecord } from './describe-record';
import { fuzzyPairs } from './fuzzy-pass';
import { compareSides, indexOfSide, sortedUniqueSides } from './side-order';
import {
  isReprintOrder,
  isSampleWithoutReceipt,
  namedReceiptId,
  printifyOrderNeedsNoMatch,
  receiptNeedsNoMatch,
  reprintOriginals,
  sortAttached,
} from './order-kinds';
import { DEFAULT_MATCHING_OPTIONS, orderRef } from './types';
import type {
  AttachedOrder,
  AttachmentReason,
  MatchingOptions,
  OrderRecordShape,
  PrintifyOrderToMatch,
  ReceiptToMatch,
  SideRef,
} from './types';

export interface MatchInput {
  readonly receipts: readonly ReceiptToMatch[];
  readonly orders: readonly PrintifyOrderToMatch[];
  /**
   * Records the engine keeps as they are: the user's decisions (method "manual": a pair they
   * matched, or a side they unmatched) and archived records. A kept record whose side no longer
   * exists is dropped and its other side is matched afresh.
   */
  readonly kept: readonly OrderRecordShape[];
  /** The clock, for "pending" (a recent receipt still waiting for its Printify order). */
  readonly now: Date;
}

/**
 * Every order record one user should have, from their receipts, Printify orders and kept
 * records. Pure and deterministic: the same inputs in any order give the same records (sorted
 * by their keys); each receipt and each Printify order is in exactly one record; and since
 * automatic matches are recomputed from the sides alone, running it again on its own output
 * changes nothing.
 *
 * Passes, each over what the earlier ones left:
 * 1. kept records (manual, archived) as they are, with their attached orders that still exist;
 * 2. exact: the order names the receipt (metadata.shop_order_id, else shop_order_label); the
 *    primary is a live order over a canceled one, an original over its reprints, then the
 *    earliest; every other order naming it is attached (reason reprint or split); an order
 *    naming a kept record's receipt stays alone (the seller decides, and may add it by hand);
 * 3. fuzzy (see fuzzyPairs): matched at or above the accept threshold, pending between
 *    review and accept; orders that name a receipt we have, and receipts an order names,
 *    are left to the exact pass only;
 * 4. the rest alone: receipts younger than `pendingReceiptDays` pending, others unmatched, and
 *    those that need no match not_needed (all-digital receipts, samples, manual orders naming no
 *    receipt, canceled orders that cost nothing);
 * 5. reprints whose original we have (reprinted_order_ids) are attached to the original's record,
 *    wherever the passes put it: they take part in no other pass.
 * Each Printify order is on exactly one record, as its primary or attached.
 */
export function matchOrders(
  input: MatchInput,
  options: MatchingOptions = DEFAULT_MATCHING_OPTIONS,
): OrderRecordShape[] {
  // Sides are addressed by their position in side order from here on: flags in typed arrays and
  // records in slots by position, not sets of objects and maps of key strings, because at 100k
  // orders the bookkeeping, not the scoring, was most of a run.
  const receipts = sortedUniqueSides(input.receipts, receiptShop, receiptId);
  const orders = sortedUniqueSides(input.orders, orderShop, orderId);
  const usedReceipts = new Uint8Array(receipts.length);
  const usedOrders = new Uint8Array(orders.length);
  // A record sits in its receipt's slot, or (a lone Printify order) in its order's.
  const recordOfReceipt: (OrderRecordShape | undefined)[] = new Array(receipts.length);
  const recordOfLoneOrder: (OrderRecordShape | undefined)[] = new Array(orders.length);
  // The record each order is on (as primary or attached), and each record's attached orders.
  const recordOfOrder: (OrderRecordShape | undefined)[] = new Array(orders.length);
  const attachedTo = new Map<OrderRecordShape, AttachedOrder[]>();
  const take = (r: number, o: number, pairing: Pairing) => {
    const record = describeRecord(r < 0 ? null : receipts[r], o < 0 ? null : orders[o], pairing);
    if (r >= 0) usedReceipts[r] = 1;
    if (o >= 0) usedOrders[o] = 1;
    if (r >= 0) recordOfReceipt[r] = record;
    else recordOfLoneOrder[o] = record;
    if (o >= 0) recordOfOrder[o] = record;
    return record;
  };
  const attach = (record: OrderRecordShape, o: number, reason: AttachmentReason) => {
    usedOrders[o] = 1;
    recordOfOrder[o] = record;
    const list = attachedTo.get(record);
    const entry = { order: orderRef(orders[o]), reason };
    if (list) list.push(entry);
    else attachedTo.set(record, [entry]);
  };

  for (const kept of sortRecords(input.kept)) {
    const r = kept.receipt ? indexOfSide(receipts, receiptShop, receiptId, kept.receipt) : -1;
    const o = kept.order ? indexOfSide(orders, orderShop, orderId, kept.order) : -1;
    // A kept record whose side is gone is dropped; its other side is matched afresh.
    if ((kept.receipt && r < 0) || (kept.order && o < 0) || (r < 0 && o < 0)) continue;
    if ((r >= 0 && usedReceipts[r]) || (o >= 0 && usedOrders[o])) continue;
    const record = take(r, o, { ...kept, attached: [] });
    // Its attached orders that still exist stay on it (a gone one is simply left out).
    for (const extra of kept.attached) {
      const a = indexOfSide(orders, orderShop, orderId, extra.order);
      if (a >= 0 && !usedOrders[a] && o >= 0) attach(record, a, extra.reason);
    }
  }

  // Reprints whose original we have go on the original's record, wherever matching puts it
  // (attached at the end): they take part in no pass of their own.
  const originalOf = reprintOriginals(orders);
  const receiptsById = groupBy(receipts, (receipt) => receipt.receiptId.trim());
  const namedReceipts = new Uint8Array(receipts.length);
  const namingOrders = new Uint8Array(orders.length);
  // The orders naming each receipt, by receipt position: the first in a flat array (most
  // receipts have one), any more in a map (reprints, split orders, duplicates).
  const firstClaimant = new Int32Array(receipts.length).fill(-1);
  const moreClaimants = new Map<number, number[]>();
  orders.forEach((order, o) => {
    const named = receiptsById.get(namedReceiptId(order) ?? '');
    if (!named) return;
    namingOrders[o] = 1;
    for (const r of named) namedReceipts[r] = 1;
    // One receipt id in two of the user's Etsy shops: the name is ambiguous, nothing is exact.
    if (named.length !== 1 || usedOrders[o] || originalOf[o] >= 0) return;
    const r = named[0];
    // A kept receipt (the user's decision, or archived) takes no new order: the seller adds one by hand.
    if (usedReceipts[r]) return;
    if (firstClaimant[r] < 0) firstClaimant[r] = o;
    else moreClaimants.set(r, [...(moreClaimants.get(r) ?? []), o]);
  });
  // The primary: a live order over a canceled one, an original over its reprints, then the earliest.
  const byRank = (a: number, b: number) =>
    Number(orders[a].canceled ?? false) - Number(orders[b].canceled ?? false) ||
    Number(isReprintOrder(orders[a])) - Number(isReprintOrder(orders[b])) ||
    orders[a].orderedAt.getTime() - orders[b].orderedAt.getTime();
  const reasonOf = (o: number): AttachmentReason => (isReprintOrder(orders[o]) ? 'reprint' : 'split');
  for (let r = 0; r < receipts.length; r += 1) {
    if (firstClaimant[r] < 0) continue;
    const others = moreClaimants.get(r);
    // Stable sort over the claimants in order position: among equals the first order wins.
    const ranked = others ? [firstClaimant[r], ...others].sort(byRank) : [firstClaimant[r]];
    const record = take(r, ranked[0], { status: 'matched', method: 'exact', confidence: 1 });
    for (const o of ranked.slice(1)) attach(record, o, reasonOf(o));
  }

  const freeReceipts: number[] = [];
  receipts.forEach(
    (receipt, r) => !usedReceipts[r] && !namedReceipts[r] && !receiptNeedsNoMatch(receipt) && freeReceipts.push(r),
  );
  const freeOrders: number[] = [];
  orders.forEach(
    (order, o) =>
      !usedOrders[o] && !namingOrders[o] && originalOf[o] < 0 && !isSampleWithoutReceipt(order) && freeOrders.push(o),
  );
  const fuzzy = fuzzyPairs(
    freeReceipts.map((r) => receipts[r]),
    freeOrders.map((o) => orders[o]),
    options,
  );
  for (const pair of fuzzy) {
    const status = pair.score >= options.acceptThreshold ? 'matched' : 'pending';
    take(freeReceipts[pair.receiptIndex], freeOrders[pair.orderIndex], {
      status,
      method: 'fuzzy',
      confidence: pair.score,
    });
  }

  receipts.forEach((receipt, r) => {
    if (usedReceipts[r]) return;
    const notNeeded = receiptNeedsNoMatch(receipt);
    const recent = receipt.orderedAt.getTime() > daysBefore(input.now, options.pendingReceiptDays).getTime();
    const status = notNeeded ? 'not_needed' : recent ? 'pending' : 'unmatched';
    take(r, -1, { status, method: null, confidence: null, notNeededReason: notNeeded });
  });
  const hasReprints = new Uint8Array(orders.length);
  for (let o = 0; o < orders.length; o += 1) if (originalOf[o] >= 0) hasReprints[originalOf[o]] = 1;
  for (let o = 0; o < orders.length; o += 1) {
    if (usedOrders[o] || originalOf[o] >= 0) continue;
    const notNeeded = printifyOrderNeedsNoMatch(orders[o], hasReprints[o] === 1);
    const status = notNeeded ? 'not_needed' : 'unmatched';
    take(-1, o, { status, method: null, confidence: null, notNeededReason: notNeeded });
  }
  for (let o = 0; o < orders.length; o += 1) {
    if (usedOrders[o] || originalOf[o] < 0) continue;
    const record = recordOfOrder[originalOf[o]];
    if (record) attach(record, o, 'reprint');
    else take(-1, o, { status: 'unmatched', method: null, confidence: null });
  }
  // Slots in side order are compareRecords' order (receipts in side order, then lone orders);
  // sortRecords only checks it.
  const withAttached = (record: OrderRecordShape) => {
    const attached = attachedTo.get(record);
    return attached ? { ...record, attached: sortAttached(attached) } : record;
  };
  const records: OrderRecordShape[] = [];
  for (const record of recordOfReceipt) if (record) records.push(withAttached(record));
  for (const record of recordOfLoneOrder) if (record) records.push(withAttached(record));
  return sortRecords(records);
}

type Pairing = Parameters<typeof describeRecord>[2];

const receiptShop = (receipt: ReceiptToMatch) => receipt.shopId;
const receiptId = (receipt: ReceiptToMatch) => receipt.receiptId;
const orderShop = (order: PrintifyOrderToMatch) => order.shopId;
const orderId = (order: PrintifyOrderToMatch) => order.orderId;

type Sided = Pick<OrderRecordShape, 'receipt' | 'order'>;

function compareOptionalSides(a: SideRef | null, b: SideRef | null): number {
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  return compareSides(a.shopId, a.id, b.shopId, b.id);
}

/** Records by receipt (side order), then Printify order (none first); lone Printify orders last. */
export function compareRecords(a: Sided, b: Sided): number {
  if (a.receipt && b.receipt)
    return compareOptionalSides(a.receipt, b.receipt) || compareOptionalSides(a.order, b.order);
  if (a.receipt || b.receipt) return a.receipt ? -1 : 1;
  return compareOptionalSides(a.order, b.order);
}

/** The records in compareRecords' order; records already in order (the engine's output) are only checked. */
export function sortRecords<T extends Sided>(records: readonly T[]): T[] {
  let ordered = true;
  for (let i = 1; i < records.length && ordered; i += 1) ordered = compareRecords(records[i - 1], records[i]) < 0;
  return ordered ? [...records] : [...records].sort(compareRecords);
}

/** Positions of the items by key (empty keys left out), in item order. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (key === '') return;
    const group = groups.get(key);
    if (group) group.push(index);
    else groups.set(key, [index]);
  });
  return groups;
}
