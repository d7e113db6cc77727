import { dateProximity, linesSimilarity, nameSimilarity } from './similarity';
import type { MatchingOptions, MatchLine } from './types';

interface Scorable {
  readonly buyerName: string | null;
  readonly orderedAt: Date;
  readonly lines: readonly MatchLine[];
}

/**
 * How likely a receipt and a Printify order are the same sale, 0–1 with four decimals.
 *
 * Buyer name 40 %, date proximity 25 %, line items 35 %. Outside the date window it is 0.
 * Two names that share no word halve the score (both sides name the recipient, so a real pair
 * agrees). With a name missing on either side the date and items decide, but the score stays
 * below the accept threshold: such a pair is at most pending, for the seller to confirm.
 */
export function scorePair(receipt: Scorable, order: Scorable, options: MatchingOptions): number {
  const date = dateProximity(receipt.orderedAt, order.orderedAt, options.maxDaysBefore, options.maxDaysAfter);
  if (date === 0) return 0;
  const items = linesSimilarity(receipt.lines, order.lines);
  const name = nameSimilarity(receipt.buyerName, order.buyerName);
  if (name === null) return round4(Math.min(0.3 * date + 0.7 * items, options.acceptThreshold - 0.0001));
  const score = 0.4 * name + 0.25 * date + 0.35 * items;
  return round4(name === 0 ? score / 2 : score);
}

/** Four decimals, as stored (numeric(5,4)), so a score read back compares equal. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
