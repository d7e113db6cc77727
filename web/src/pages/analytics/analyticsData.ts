import type { AnalyticsBucket, AnalyticsResponse, MoneyView } from '@pod/contracts';
import { formatMinorUnits } from '@pod/domain';

// The Analytics page's figures shaped for its charts and tables. Amounts stay integer minor
// units: the charts plot minor units and format their ticks as money, so no float holds money.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A bucket's label: "Nov 24" for a day, "Week of Nov 24" for a week, "Nov 2026" for a month (UTC days). */
export function bucketLabel(start: string, bucket: AnalyticsBucket): string {
  const [year, month, day] = start.split('-').map(Number);
  const name = MONTHS[month - 1] ?? start;
  if (bucket === 'month') return `${name} ${year}`;
  return bucket === 'week' ? `Week of ${name} ${day}` : `${name} ${day}`;
}

/** The change from the previous period in percent (one decimal); null when there is nothing to compare with. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / Math.abs(previous)) * 1000) / 10;
}

/** "+12.3% vs previous 30 days", "no orders in the previous 30 days", or "same as …". */
export function comparisonText(current: number, previous: number, days: number, hadOrders: boolean): string {
  const period = `previous ${days} days`;
  if (!hadOrders) return `No orders in the ${period}`;
  const change = changePercent(current, previous);
  if (change === null) return current === 0 ? `Same as the ${period}` : `Up from nothing in the ${period}`;
  if (change === 0) return `Same as the ${period}`;
  return `${change > 0 ? '+' : ''}${change.toFixed(1)}% vs ${period}`;
}

/** A margin's change in percentage points ("+2.1 pts vs previous 30 days"). */
export function marginComparisonText(current: number | null, previous: number | null, days: number): string {
  const period = `previous ${days} days`;
  if (current === null || previous === null) return `No margin to compare with the ${period}`;
  const points = Math.round((current - previous) * 10) / 10;
  return points === 0 ? `Same as the ${period}` : `${points > 0 ? '+' : ''}${points.toFixed(1)} pts vs ${period}`;
}

export interface OverTimeRow {
  label: string;
  revenue: number;
  costs: number;
  profit: number;
  margin: number | null;
}

export function overTimeRows(analytics: AnalyticsResponse): OverTimeRow[] {
  return analytics.series.map((point) => ({
    label: bucketLabel(point.start, analytics.bucket),
    revenue: point.revenue.minor,
    costs: point.costs.minor,
    profit: point.netProfit.minor,
    margin: point.margin,
  }));
}

/** Money axis ticks in the display currency: minor units in, "$850", "$12.50" or "$1,234" out (no cents from 1,000 or when whole). */
export function moneyTick(currency: string) {
  return (minor: number) => {
    const text = formatMinorUnits(minor, currency);
    return Math.abs(minor) >= 100_000 || minor % 100 === 0 ? text.replace(/\.\d\d$/, '') : text;
  };
}

export const moneyText = (value: MoneyView) => formatMinorUnits(value.minor, value.currency);

export interface ShareRow {
  key: 'matched' | 'pending' | 'unmatched';
  label: string;
  orders: number;
  /** Of all three, one decimal; 0 when there is none. */
  percent: number;
}

/** Matched, pending and unmatched orders of the range, each with its share. */
export function statusShareRows(share: AnalyticsResponse['statusShare']): ShareRow[] {
  const total = share.matched + share.pending + share.unmatched;
  const row = (key: ShareRow['key'], label: string): ShareRow => ({
    key,
    label,
    orders: share[key],
    percent: total === 0 ? 0 : Math.round((share[key] / total) * 1000) / 10,
  });
  return [row('matched', 'Matched'), row('pending', 'Pending'), row('unmatched', 'Unmatched')];
}
