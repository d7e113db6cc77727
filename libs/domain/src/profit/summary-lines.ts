/**
 * The Profit Summary's lines as a general list: each line has a kind, a sign (whether it adds to
 * its total or is taken off it) and an amount that is never shown with a sign of its own, so a
 * discount reads "−$6.23" under Revenue instead of a second positive revenue.
 *
 * Every line is converted on its own, so the converted lines may miss the converted total by a
 * cent or two of rounding (or more where a later refund's rate moved a clamped total).
 * `addUpTo` puts that difference on the largest line, so what the summary prints always adds up
 * to the total it prints, in every display currency (ADR 0030).
 */

/** +1: the line adds to its total; −1: it is taken off (a discount, a refund, revenue held back). */
export type LineSign = 1 | -1;

/** Revenue lines that are taken off revenue; every other revenue line, and every cost line, adds. */
export const DEDUCTED_REVENUE_KINDS: ReadonlySet<string> = new Set(['discount', 'refunds', 'unpaid', 'vat_in_prices']);

export function revenueLineSign(kind: string): LineSign {
  return DEDUCTED_REVENUE_KINDS.has(kind) ? -1 : 1;
}

export interface SignedAmount {
  readonly sign: LineSign;
  readonly minor: number;
}

/** Σ sign × amount. */
export function signedSum(lines: readonly SignedAmount[]): number {
  return lines.reduce((sum, line) => sum + line.sign * line.minor, 0);
}

/**
 * The lines' amounts changed so their signed sum is `total`: the whole difference goes to the
 * line of the largest amount (the first of equals), where a cent moves it least in proportion.
 * Lines already adding up come back unchanged; no lines and a non-zero total cannot add up and
 * are returned as they are (the caller's totals then tell).
 */
export function addUpTo(lines: readonly SignedAmount[], total: number): number[] {
  const amounts = lines.map((line) => line.minor);
  const gap = total - signedSum(lines);
  if (gap === 0 || lines.length === 0) return amounts;
  let largest = 0;
  for (let index = 1; index < lines.length; index += 1)
    if (Math.abs(lines[index].minor) > Math.abs(lines[largest].minor)) largest = index;
  amounts[largest] += lines[largest].sign * gap;
  return amounts;
}
