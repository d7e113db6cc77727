import { indexOfSide } from './side-order';
import type { AttachedOrder, NotNeededReason, PrintifyOrderToMatch, ReceiptToMatch } from './types';

/**
 * What a Printify order or receipt is, beyond its sides: a reprint of another order, or an order
 * that needs no match. Pure helpers for the engine (docs/adr/0025-receipts-with-several-printify-orders.md).
 */

/** The receipt id a Printify order names, if any (integrations.md b.4: shop_order_id, its label as the string form). */
export function namedReceiptId(order: Pick<PrintifyOrderToMatch, 'shopOrderId' | 'shopOrderLabel'>): string | null {
  const id = order.shopOrderId?.trim() || order.shopOrderLabel?.trim();
  return id ? id : null;
}

/** A reprint by either mark: is_reprint, or reprinted_order_ids naming an order. */
export function isReprintOrder(order: PrintifyOrderToMatch): boolean {
  return order.isReprint || (order.reprintedOrderIds?.length ?? 0) > 0;
}

/**
 * For each order (by position in `orders`, side order), the position of the original it
 * reprints, followed to the first order of the chain (a reprint of a reprint goes with the
 * first), or -1: not a reprint, or its original is not among the orders. The original is looked
 * up in the reprint's own shop first, then by id alone when one shop holds it. A cycle (bad data)
 * names no original.
 *
 * Printify's docs name the marks (`is_reprint`, `reprinted_order_ids`, `child_reprinted_order_ids`,
 * integrations.md §b.4) but not which order of a pair fills which list, so each list is read as a
 * link: `reprinted_order_ids` names the original, `child_reprinted_order_ids` names a reprint,
 * unless `is_reprint` says the other order of the pair is the reprint (the list then names it from
 * the original's side). A link already made by the reprint's own list wins.
 */
export function reprintOriginals(orders: readonly PrintifyOrderToMatch[]): Int32Array {
  const byId = new Map<string, number[]>();
  orders.forEach((order, o) => {
    const id = order.orderId.trim();
    byId.set(id, [...(byId.get(id) ?? []), o]);
  });
  const find = (from: PrintifyOrderToMatch, raw: string): number => {
    const id = String(raw).trim();
    const sameShop = indexOfSide(
      orders,
      (x) => x.shopId,
      (x) => x.orderId,
      { shopId: from.shopId, id },
    );
    const anyShop = byId.get(id);
    return sameShop >= 0 ? sameShop : anyShop?.length === 1 ? anyShop[0] : -1;
  };
  const parent = new Int32Array(orders.length).fill(-1);
  // An unflagged order naming a flagged one in reprinted_order_ids lists its reprint (is_reprint decides).
  const namesItsReprint = (o: number, other: number) => !orders[o].isReprint && orders[other].isReprint;
  orders.forEach((order, o) => {
    if (parent[o] >= 0) return;
    for (const raw of order.reprintedOrderIds ?? []) {
      const found = find(order, raw);
      if (found < 0 || found === o || namesItsReprint(o, found)) continue;
      parent[o] = found;
      return;
    }
  });
  const linkChild = (original: number, child: number) => {
    if (child >= 0 && child !== original && parent[child] < 0 && parent[original] !== child) parent[child] = original;
  };
  orders.forEach((order, o) => {
    for (const raw of order.childReprintedOrderIds ?? []) linkChild(o, find(order, raw));
    for (const raw of order.reprintedOrderIds ?? []) {
      const found = find(order, raw);
      if (found >= 0 && namesItsReprint(o, found)) linkChild(o, found);
    }
  });
  const root = new Int32Array(orders.length).fill(-1);
  for (let o = 0; o < orders.length; o += 1) {
    let at = o;
    let steps = 0;
    while (parent[at] >= 0 && steps <= orders.length) {
      at = parent[at];
      steps += 1;
    }
    root[o] = parent[o] >= 0 && steps <= orders.length && at !== o ? at : -1;
  }
  return root;
}

/** A receipt whose every line is digital needs no fulfilment. */
export function receiptNeedsNoMatch(receipt: ReceiptToMatch): NotNeededReason | null {
  return receipt.allDigital && receipt.lines.length > 0 ? 'digital' : null;
}

/**
 * Why a lone Printify order needs no receipt, or null when it needs the seller: a canceled
 * order that cost nothing (and has no reprint hanging on it), or a sample / manual order naming
 * no marketplace order. A reprint always needs its receipt.
 */
export function printifyOrderNeedsNoMatch(order: PrintifyOrderToMatch, hasReprints: boolean): NotNeededReason | null {
  if (isReprintOrder(order)) return null;
  if (order.canceled && order.costMinor === 0 && !hasReprints) return 'canceled_empty';
  if (namedReceiptId(order) !== null) return null;
  if (order.orderType === 'sample') return 'printify_sample';
  if (order.orderType === 'manual') return 'printify_manual';
  return null;
}

/** A sample goes to the seller, never to a buyer: it is no candidate for a receipt. */
export function isSampleWithoutReceipt(order: PrintifyOrderToMatch): boolean {
  return order.orderType === 'sample' && namedReceiptId(order) === null && !isReprintOrder(order);
}

/** Attached orders in side order (stored and compared in this order). */
export function sortAttached(attached: readonly AttachedOrder[]): AttachedOrder[] {
  return [...attached].sort(
    (a, b) =>
      (a.order.shopId < b.order.shopId ? -1 : a.order.shopId > b.order.shopId ? 1 : 0) ||
      (a.order.id < b.order.id ? -1 : a.order.id > b.order.id ? 1 : 0),
  );
}
