import { canTakeByHand } from './manual-match';
import { fitOfPair, type PairFit } from './score';
import { DEFAULT_MATCHING_OPTIONS } from './types';
import type { MatchingOptions, MatchStatus, PrintifyOrderToMatch, ReceiptToMatch } from './types';

/** A record as the manual-match dialog sees it: its id, state and the sides it holds. */
export interface CandidateRecord {
  readonly id: string;
  readonly status: MatchStatus;
  readonly archived: boolean;
  readonly receipt: ReceiptToMatch | null;
  readonly order: PrintifyOrderToMatch | null;
}

export interface RankedCandidate {
  readonly id: string;
  /** The fuzzy score of the pair the two records would make, 0–1, and its parts. */
  readonly fit: PairFit;
}

/**
 * The records the user may match `selected` with, best first (spec §5, and the rule of
 * manual-match.ts): for a receipt, with or without its Printify order (issue 17: a receipt may
 * take another one), the lone Printify orders the seller may put on it (canTakeByHand); for a
 * lone Printify order not matched, the lone receipts neither matched nor archived. Nothing for an
 * archived record. Ranked by the fuzzy score, then by how close the dates are, then id.
 *
 * `keepNoFit`: a pair that cannot be the same sale (score 0: outside the date window) is left
 * out unless the seller searched for it by name or id.
 */
export function rankManualCandidates(
  selected: CandidateRecord,
  records: readonly CandidateRecord[],
  { keepNoFit = false, options = DEFAULT_MATCHING_OPTIONS }: { keepNoFit?: boolean; options?: MatchingOptions } = {},
): RankedCandidate[] {
  if (selected.archived) return [];
  const wanted = selected.receipt
    ? (record: CandidateRecord) => canTakeByHand(record)
    : selected.order && selected.status !== 'matched'
      ? (record: CandidateRecord) =>
          record.receipt !== null && record.order === null && record.status !== 'matched' && !record.archived
      : () => false;
  const ranked = records
    .filter((record) => record.id !== selected.id && wanted(record))
    .flatMap((record) => {
      const receipt = selected.receipt ?? record.receipt;
      const order = record.order ?? selected.order;
      if (!receipt || !order) return [];
      const fit = fitOfPair(receipt, order, options);
      if (fit.score === 0 && !keepNoFit) return [];
      const gap = Math.abs(receipt.orderedAt.getTime() - order.orderedAt.getTime());
      return [{ id: record.id, fit, gap }];
    })
    .sort((a, b) => b.fit.score - a.fit.score || a.gap - b.gap || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return ranked.map(({ id, fit }) => ({ id, fit }));
}
