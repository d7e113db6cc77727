import { describeRecord } from './describe-record';
import { fuzzyPairs } from './fuzzy-pass';
import { DEFAULT_MATCHING_OPTIONS, sideKey, orderRef, receiptRef } from './types';
import type { MatchingOptions, OrderRecordShape, PrintifyOrderToMatch, ReceiptToMatch } from './types';

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

const DAY_MS = 86_400_000;

/**
 * Every order record one user should have, from their receipts, Printify orders and kept
 * records. Pure and deterministic: the same inputs in any order give the same records (sorted
 * by their keys); each receipt and each Printify order is in exactly one record; and since
 * automatic matches are recomputed from the sides alone, running it again on its own output
 * changes nothing.
 *
 * Passes, each over what the earlier ones left:
 * 1. kept records (manual, archived) as they are;
 * 2. exact: the order names the receipt (metadata.shop_order_id, else shop_order_label);
 *    an original wins over its reprints, then the earliest order;
 * 3. fuzzy (see fuzzyPairs): matched at or above the accept threshold, pending between
 *    review and accept; orders that name a receipt we have, and receipts an order names,
 *    are left to the exact pass only;
 * 4. the rest alone: receipts younger than `pendingReceiptDays` pending, others unmatched.
 */
export function matchOrders(input: MatchInput, options: MatchingOptions = DEFAULT_MATCHING_OPTIONS): OrderRecordShape[] {
  const receipts = sortedUnique(input.receipts, (receipt) => sideKey(receiptRef(receipt)));
  const orders = sortedUnique(input.orders, (order) => sideKey(orderRef(order)));
  const receiptByKey = new Map(receipts.map((receipt) => [sideKey(receiptRef(receipt)), receipt]));
  const orderByKey = new Map(orders.map((order) => [sideKey(orderRef(order)), order]));
  const usedReceipts = new Set<ReceiptToMatch>();
  const usedOrders = new Set<PrintifyOrderToMatch>();
  const records: OrderRecordShape[] = [];
  const take = (receipt: ReceiptToMatch | null, order: PrintifyOrderToMatch | null, pairing: Pick<OrderRecordShape, 'status' | 'method' | 'confidence'>) => {
    if (receipt) usedReceipts.add(receipt);
    if (order) usedOrders.add(order);
    records.push(describeRecord(receipt, order, pairing));
  };

  for (const kept of sortRecords(input.kept)) {
    const receipt = kept.receipt ? receiptByKey.get(sideKey(kept.receipt)) : null;
    const order = kept.order ? orderByKey.get(sideKey(kept.order)) : null;
    if (receipt === undefined || order === undefined || (!receipt && !order)) continue;
    if ((receipt && usedReceipts.has(receipt)) || (order && usedOrders.has(order))) continue;
    take(receipt, order, kept);
  }

  const receiptsById = groupBy(receipts, (receipt) => receipt.receiptId.trim());
  const namedReceipts = new Set<ReceiptToMatch>();
  const namingOrders = new Set<PrintifyOrderToMatch>();
  const claims = new Map<ReceiptToMatch, PrintifyOrderToMatch[]>();
  for (const order of orders) {
    const named = receiptsById.get(namedReceiptId(order) ?? '');
    if (!named) continue;
    namingOrders.add(order);
    for (const receipt of named) namedReceipts.add(receipt);
    // One receipt id in two of the user's Etsy shops: the name is ambiguous, nothing is exact.
    if (named.length !== 1 || usedOrders.has(order) || usedReceipts.has(named[0])) continue;
    claims.set(named[0], [...(claims.get(named[0]) ?? []), order]);
  }
  for (const [receipt, claimants] of claims) {
    const winner = [...claimants].sort((a, b) => Number(a.isReprint) - Number(b.isReprint) || a.orderedAt.getTime() - b.orderedAt.getTime())[0];
    take(receipt, winner, { status: 'matched', method: 'exact', confidence: 1 });
  }

  const freeReceipts = receipts.filter((receipt) => !usedReceipts.has(receipt) && !namedReceipts.has(receipt));
  const freeOrders = orders.filter((order) => !usedOrders.has(order) && !namingOrders.has(order));
  for (const pair of fuzzyPairs(freeReceipts, freeOrders, options)) {
    const status = pair.score >= options.acceptThreshold ? 'matched' : 'pending';
    take(pair.receipt, pair.order, { status, method: 'fuzzy', confidence: pair.score });
  }

  for (const receipt of receipts) {
    if (usedReceipts.has(receipt)) continue;
    const recent = input.now.getTime() - receipt.orderedAt.getTime() < options.pendingReceiptDays * DAY_MS;
    take(receipt, null, { status: recent ? 'pending' : 'unmatched', method: null, confidence: null });
  }
  for (const order of orders) {
    if (!usedOrders.has(order)) take(null, order, { status: 'unmatched', method: null, confidence: null });
  }
  return sortRecords(records);
}

/** The receipt id a Printify order names, if any (integrations.md b.4: shop_order_id, its label as the string form). */
export function namedReceiptId(order: Pick<PrintifyOrderToMatch, 'shopOrderId' | 'shopOrderLabel'>): string | null {
  const id = order.shopOrderId?.trim() || order.shopOrderLabel?.trim();
  return id ? id : null;
}

type Sided = Pick<OrderRecordShape, 'receipt' | 'order'>;

const recordKey = (record: Sided) => `${record.receipt ? `0${sideKey(record.receipt)}` : '1'}\u001e${record.order ? sideKey(record.order) : ''}`;

/** Records by receipt key, then order key (lone orders last). */
export function compareRecords(a: Sided, b: Sided): number {
  const [ka, kb] = [recordKey(a), recordKey(b)];
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * The records in compareRecords' order, each key built once: comparing builds two key strings
 * per comparison, which at 100k records made sorting the engine's largest cost.
 */
export function sortRecords<T extends Sided>(records: readonly T[]): T[] {
  const keyed = records.map((record) => ({ record, key: recordKey(record) }));
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return keyed.map((entry) => entry.record);
}

function sortedUnique<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (!byKey.has(key)) byKey.set(key, item);
  }
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === '') continue;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}
