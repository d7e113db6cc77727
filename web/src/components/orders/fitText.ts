import type { CandidateFit, OrderRowView } from '@pod/contracts';

const DAY_MS = 86_400_000;

/** Whole days between the two orders' dates, or null when either has none. */
function daysApart(a: OrderRowView, b: OrderRowView): number | null {
  if (!a.orderDate || !b.orderDate) return null;
  return Math.round(Math.abs(Date.parse(a.orderDate) - Date.parse(b.orderDate)) / DAY_MS);
}

/** A fit as the seller reads it: "9% fit". */
export const fitPercent = (score: number) => `${Math.round(score * 100)}% fit`;

/**
 * Why a candidate fits badly, part by part (the matcher's measures: buyer name, date, products),
 * e.g. ["the buyer names share no word", "the orders are 12 days apart"]. Empty when no part is low.
 */
export function lowFitReasons(fit: CandidateFit, selected: OrderRowView, candidate: OrderRowView): string[] {
  const reasons: string[] = [];
  if (fit.buyerName === null) reasons.push('one of them has no buyer name');
  else if (fit.buyerName === 0) reasons.push('the buyer names share no word');
  else if (fit.buyerName < 0.5) reasons.push('the buyer names barely agree');
  const days = daysApart(selected, candidate);
  if (fit.date === 0)
    reasons.push(
      days === null ? 'the dates are too far apart' : `the orders are ${days} days apart, too far for one sale`,
    );
  else if (fit.date < 0.5 && days !== null) reasons.push(`the orders are ${days} days apart`);
  if (fit.items === 0) reasons.push('the products share nothing');
  else if (fit.items < 0.5) reasons.push('the products barely agree');
  return reasons;
}

/** The low-fit confirmation's sentence: "Only 9% fit: the buyer names share no word and the products share nothing." */
export function lowFitText(fit: CandidateFit, selected: OrderRowView, candidate: OrderRowView): string {
  const reasons = lowFitReasons(fit, selected, candidate);
  const why =
    reasons.length === 0
      ? 'the buyer name, date and products agree only in part'
      : reasons.length === 1
        ? reasons[0]
        : `${reasons.slice(0, -1).join(', ')} and ${reasons[reasons.length - 1]}`;
  return `Only ${fitPercent(fit.score)}: ${why}. These may not be the same sale.`;
}
