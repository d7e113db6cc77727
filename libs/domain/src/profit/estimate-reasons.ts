/**
 * Why a line of the Profit Summary is an estimate, so a seller can tell an estimate that will be
 * replaced (Etsy has not sent the figure yet) from one that never will (ADR 0030):
 * - `ledger_not_arrived`: Etsy's ledger has no entry for the order yet; Etsy's figures replace
 *   the estimate once they sync.
 * - `not_in_ledger`: the ledger has the order's entries but none of this fee (a renewal not
 *   attributed to the sale yet, a VAT entry not in); estimated until one arrives.
 * - `not_itemised`: Etsy never lists this fee per order (the 2.5% currency conversion fee, ADR
 *   0026), so it is always estimated.
 * - `standard_rate`: figured at the country's standard VAT rate (the VAT in a registered
 *   seller's prices); a reduced-rate item would owe less.
 */
export const ESTIMATE_REASONS = ['ledger_not_arrived', 'not_in_ledger', 'not_itemised', 'standard_rate'] as const;
export type EstimateReason = (typeof ESTIMATE_REASONS)[number];

/** The reason as a seller reads it (the tooltip of an "estimated" mark). */
export const ESTIMATE_REASON_TEXT: Record<EstimateReason, string> = {
  ledger_not_arrived:
    "Etsy's ledger has no entries for this order yet; Etsy's own figure replaces this estimate once it syncs",
  not_in_ledger:
    "Etsy's ledger lists this order's other fees but not this one yet; Etsy's own figure replaces this estimate once it syncs",
  not_itemised: 'Etsy never lists this fee per order, so it is always estimated',
  standard_rate: "Figured at your country's standard VAT rate; an item at a reduced rate owes less",
};

/**
 * The full explanation of one estimated line: why it is estimated, then how (the engine's rule,
 * e.g. "6.5% of items, shipping and gift wrap"). Lines stored before reasons were kept have
 * only their rule.
 */
export function estimateExplanation(reason: EstimateReason | null | undefined, rule: string | null): string {
  const how = rule ? `Estimated as ${rule}.` : 'Estimated from the fee schedule.';
  return reason ? `${ESTIMATE_REASON_TEXT[reason]}. ${how}` : how;
}
