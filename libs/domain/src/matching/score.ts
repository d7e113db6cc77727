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
  return combineFit(
    nameSimilarity(receipt.buyerName, order.buyerName),
    date,
    linesSimilarity(receipt.lines, order.lines),
    options,
  );
}

/** A pair's score and the three measures it is made of, each 0–1 (name null: missing on a side). */
export interface PairFit {
  readonly score: number;
  readonly buyerName: number | null;
  readonly date: number;
  readonly items: number;
}

/**
 * scorePair with its parts, for the seller: the manual-match dialog says why a fit is low. Every
 * part is measured even outside the date window (score 0), so the dialog can name them all.
 */
export function fitOfPair(receipt: Scorable, order: Scorable, options: MatchingOptions): PairFit {
  const date = dateProximity(receipt.orderedAt, order.orderedAt, options.maxDaysBefore, options.maxDaysAfter);
  const buyerName = nameSimilarity(receipt.buyerName, order.buyerName);
  const items = linesSimilarity(receipt.lines, order.lines);
  const score = date === 0 ? 0 : combineFit(buyerName, date, items, options);
  return { score, buyerName: buyerName === null ? null : round4(buyerName), date: round4(date), items: round4(items) };
}

function combineFit(name: number | null, date: number, items: number, options: MatchingOptions): number {
  if (name === null) return round4(Math.min(0.3 * date + 0.7 * items, options.acceptThreshold - 0.0001));
  const score = 0.4 * name + 0.25 * date + 0.35 * items;
  return round4(name === 0 ? score / 2 : score);
}

/** Four decimals, as stored (numeric(5,4)), so a score read back compares equal. */
export function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
