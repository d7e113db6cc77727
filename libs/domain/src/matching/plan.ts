import { sortRecords } from './engine';
import { round4 } from './score';
import { SideMap } from './side-order';
import type { ExistingOrderRecord, OrderRecordShape } from './types';

export interface RecordUpdate {
  readonly id: string;
  readonly record: OrderRecordShape;
  /** The order side changes: the writer frees it first, so two records can swap orders under the unique index. */
  readonly orderSideChanges: boolean;
  /**
   * Its set of attached Printify orders changes: the writer rewrites them (freeing them before any
   * record takes them), and the record's stored figures no longer describe it.
   */
  readonly attachedChanges: boolean;
}

export interface RecordChanges {
  readonly inserts: readonly OrderRecordShape[];
  readonly updates: readonly RecordUpdate[];
  readonly deletes: readonly string[];
}

/**
 * The diff that turns the stored records into the engine's, keeping record ids wherever a
 * record's identity stays (per-order figures hang on the id):
 * - a record with a receipt is that receipt's: it keeps its id whatever its Printify side does
 *   (a lone receipt that gets its order keeps the id; the absorbed lone Printify record goes);
 * - a record without a receipt is its Printify order's, and keeps its id when the receipt arrives
 *   later (it becomes the pair) or while it stays alone;
 * - a Printify order leaving a pair gets a new record.
 * Nothing changes when the stored records already are the engine's.
 */
export function planRecordChanges(
  existing: readonly ExistingOrderRecord[],
  desired: readonly OrderRecordShape[],
): RecordChanges {
  const byReceipt = new SideMap<ExistingOrderRecord>();
  const loneByOrder = new SideMap<ExistingOrderRecord>();
  for (const record of existing) {
    if (record.receipt) byReceipt.set(record.receipt.shopId, record.receipt.id, record);
    else if (record.order) loneByOrder.set(record.order.shopId, record.order.id, record);
  }
  const claimed = new Set<string>();
  const inserts: OrderRecordShape[] = [];
  const updates: RecordUpdate[] = [];
  for (const record of sortRecords(desired)) {
    const current =
      (record.receipt ? byReceipt.getRef(record.receipt) : undefined) ??
      (record.order ? loneByOrder.getRef(record.order) : undefined);
    if (!current || claimed.has(current.id)) {
      inserts.push(record);
      continue;
    }
    claimed.add(current.id);
    if (sameShape(current, record)) continue;
    updates.push({
      id: current.id,
      record,
      orderSideChanges: !sameSide(current.order, record.order),
      attachedChanges: !sameAttached(current.attached, record.attached),
    });
  }
  const deletes = existing
    .filter((record) => !claimed.has(record.id))
    .map((record) => record.id)
    .sort();
  return { inserts, updates, deletes };
}

export function isEmptyChange(changes: RecordChanges): boolean {
  return changes.inserts.length === 0 && changes.updates.length === 0 && changes.deletes.length === 0;
}

/** Equal in every stored field (dates to the millisecond, confidence to four decimals). */
export function sameShape(a: OrderRecordShape, b: OrderRecordShape): boolean {
  return (
    sameSide(a.receipt, b.receipt) &&
    sameSide(a.order, b.order) &&
    sameAttached(a.attached, b.attached) &&
    a.status === b.status &&
    a.notNeededReason === b.notNeededReason &&
    a.method === b.method &&
    (a.confidence === null
      ? b.confidence === null
      : b.confidence !== null && round4(a.confidence) === round4(b.confidence)) &&
    (a.orderDate?.getTime() ?? null) === (b.orderDate?.getTime() ?? null) &&
    a.customerName === b.customerName &&
    a.productTitle === b.productTitle &&
    a.productSku === b.productSku
  );
}

/** The same attached orders with the same reasons, in the same (side) order. */
export function sameAttached(a: OrderRecordShape['attached'], b: OrderRecordShape['attached']): boolean {
  return a.length === b.length && a.every((x, i) => x.reason === b[i].reason && sameSide(x.order, b[i].order));
}

function sameSide(a: OrderRecordShape['receipt'], b: OrderRecordShape['receipt']): boolean {
  // Field by field, not by sideKey: no key strings built for every record of a 100k-order run.
  return a === null || b === null ? a === b : a.shopId === b.shopId && a.id === b.id;
}
