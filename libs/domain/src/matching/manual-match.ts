import type { MatchStatus, SideRef } from './types';

/**
 * The seller's manual matching rule, in one place (spec Part 2 point 5; issue 17). The database
 * side (OrderEditsService) loads the records, asks here what to do, and applies the answer
 * under the user's lock; the candidates the dialog offers (rankManualCandidates) follow the
 * same rule through `canTakeByHand`.
 */

/** A record as the rule sees it: its sides and state. */
export interface ManualRecord {
  readonly id: string;
  readonly status: MatchStatus;
  readonly archived: boolean;
  readonly receipt: SideRef | null;
  /** The primary Printify order. */
  readonly order: SideRef | null;
  /** The additional Printify orders. */
  readonly attached: readonly SideRef[];
}

/**
 * Why a manual change is refused (each a 409 the seller can act on; an id that is not theirs is a
 * 404 before the rule is asked):
 * - same_record: the two ids are one record;
 * - archived: archived orders are frozen (restore first);
 * - no_printify_side / no_etsy_side: a match needs an Etsy order and a Printify order;
 * - already_matched: the Printify order is already on a receipt (remove it there first);
 * - two_receipts: both records hold an Etsy order;
 * - not_on_record: the Printify order to remove is not on this record.
 */
export type ManualRefusal =
  | 'same_record'
  | 'archived'
  | 'no_printify_side'
  | 'no_etsy_side'
  | 'already_matched'
  | 'two_receipts'
  | 'not_on_record';

/**
 * pair: a lone receipt and a lone Printify order become one matched pair (the receipt's record
 * keeps its id; the order's record goes, its attached reprints come along);
 * attach: the lone Printify order (with any reprints on it) joins a receipt that already has one,
 * reason manual.
 */
export type ManualMatchPlan =
  | { readonly kind: 'pair'; readonly receiptRecordId: string; readonly orderRecordId: string }
  | { readonly kind: 'attach'; readonly receiptRecordId: string; readonly orderRecordId: string };

/** A lone Printify order's record the seller may put on a receipt: not archived, no receipt, not matched. */
export function canTakeByHand(record: {
  readonly receipt: object | null;
  readonly order: object | null;
  readonly archived: boolean;
  readonly status: MatchStatus;
}): boolean {
  return record.order !== null && record.receipt === null && !record.archived && record.status !== 'matched';
}

/** What matching `selected` with `other` by hand does, or why it cannot. The order of the two does not matter. */
export function planManualMatch(selected: ManualRecord, other: ManualRecord): ManualMatchPlan | ManualRefusal {
  if (selected.id === other.id) return 'same_record';
  if (selected.archived || other.archived) return 'archived';
  if (selected.receipt && other.receipt) return 'two_receipts';
  const receiptRecord = selected.receipt ? selected : other.receipt ? other : null;
  if (!receiptRecord) return 'no_etsy_side';
  const orderRecord = receiptRecord === selected ? other : selected;
  if (!orderRecord.order) return 'no_printify_side';
  if (orderRecord.status === 'matched') return 'already_matched';
  if (!receiptRecord.order) return { kind: 'pair', receiptRecordId: receiptRecord.id, orderRecordId: orderRecord.id };
  return { kind: 'attach', receiptRecordId: receiptRecord.id, orderRecordId: orderRecord.id };
}

/**
 * Taking a Printify order off a receipt by hand. unmatch: it is the record's only Printify order,
 * so this is the plain unmatch (the receipt stays alone); detach: an additional order leaves;
 * promote: the primary leaves and the first additional order takes its place. The order that
 * leaves becomes its own lone record, kept by later matcher runs (method manual).
 */
export type ManualRemovalPlan =
  | { readonly kind: 'unmatch' }
  | { readonly kind: 'detach'; readonly order: SideRef }
  | { readonly kind: 'promote'; readonly order: SideRef; readonly newPrimary: SideRef };

export function planManualRemoval(
  record: ManualRecord,
  printifyOrderId: string,
  printifyShopId?: string,
): ManualRemovalPlan | ManualRefusal {
  if (record.archived) return 'archived';
  if (!record.receipt) return 'no_etsy_side';
  const matches = (side: SideRef) =>
    side.id === printifyOrderId && (printifyShopId === undefined || side.shopId === printifyShopId);
  if (record.order && matches(record.order)) {
    const [next] = record.attached;
    return next ? { kind: 'promote', order: record.order, newPrimary: next } : { kind: 'unmatch' };
  }
  const attached = record.attached.find(matches);
  return attached ? { kind: 'detach', order: attached } : 'not_on_record';
}
