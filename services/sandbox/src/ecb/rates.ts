import { hash32, Rng } from '../core/random';
import { dayNumberOf, isTargetDay } from './calendar';

/**
 * A plausible, deterministic history of ECB reference rates (foreign units per 1 EUR): a seeded
 * random walk anchored at 2026-01-02, so the values of a day never change as time passes. The
 * currency order and decimals follow the ECB's files. BGN appears, fixed, until it left the
 * list at the end of 2025.
 */
export const CURRENCIES: ReadonlyArray<readonly [code: string, anchor: number, decimals: number, dailyVol: number]> = [
  ['USD', 1.17, 4, 0.004],
  ['JPY', 182.5, 2, 0.005],
  ['BGN', 1.9558, 4, 0],
  ['CZK', 24.3, 3, 0.002],
  ['DKK', 7.4691, 4, 0.0001],
  ['GBP', 0.8723, 5, 0.003],
  ['HUF', 384.2, 2, 0.004],
  ['PLN', 4.22, 4, 0.002],
  ['RON', 5.09, 4, 0.001],
  ['SEK', 10.78, 4, 0.004],
  ['CHF', 0.931, 4, 0.003],
  ['ISK', 147.8, 2, 0.003],
  ['NOK', 11.82, 4, 0.004],
  ['TRY', 50.3, 4, 0.006],
  ['AUD', 1.752, 4, 0.005],
  ['BRL', 6.42, 4, 0.007],
  ['CAD', 1.611, 4, 0.004],
  ['CNY', 8.19, 4, 0.003],
  ['HKD', 9.12, 4, 0.004],
  ['IDR', 19530.5, 2, 0.004],
  ['ILS', 3.76, 4, 0.005],
  ['INR', 105.2, 4, 0.004],
  ['KRW', 1692.3, 2, 0.005],
  ['MXN', 21.1, 4, 0.006],
  ['MYR', 4.77, 4, 0.004],
  ['NZD', 2.02, 4, 0.005],
  ['PHP', 68.9, 3, 0.004],
  ['SGD', 1.509, 4, 0.003],
  ['THB', 36.9, 3, 0.004],
  ['ZAR', 19.6, 4, 0.007],
];
const ANCHOR_DAY = dayNumberOf('2026-01-02');
const FIRST_DAY = dayNumberOf('1999-01-04');
const BGN_LAST_DAY = dayNumberOf('2025-12-31');

/** Whether the ECB quoted `code` on `day` (BGN left the list at the end of 2025). */
export function isQuoted(code: string, day: number): boolean {
  return code !== 'BGN' || day <= BGN_LAST_DAY;
}

export interface RateDay {
  day: number;
  rates: Array<[code: string, value: number, decimals: number]>;
}

export class RateHistory {
  private readonly days: number[] = [];
  private readonly values: Float64Array[] = [];
  private readonly seedHash: number;

  constructor(seed: string) {
    this.seedHash = hash32(seed, 'ecb');
  }

  /** Every TARGET day from 1999-01-04 to `lastDay`, newest first. */
  history(lastDay: number, firstDay = FIRST_DAY): RateDay[] {
    this.extendTo(lastDay);
    const out: RateDay[] = [];
    for (let k = this.days.length - 1; k >= 0; k--) {
      const day = this.days[k];
      if (day > lastDay) continue;
      if (day < firstDay) break;
      out.push({
        day,
        // Each value by the currency's own column: filtering BGN out first would shift every
        // later currency onto its neighbour's rate (GBP at DKK's 7.46) from 2026.
        rates: CURRENCIES.map(([code, , decimals], c): [string, number, number] => [
          code,
          this.values[k][c],
          decimals,
        ]).filter(([code]) => isQuoted(code, day)),
      });
    }
    return out;
  }

  private extendTo(lastDay: number): void {
    const known = this.days.length > 0 ? this.days[this.days.length - 1] : FIRST_DAY - 1;
    if (lastDay <= known) return;
    const allDays: number[] = [];
    for (let d = FIRST_DAY; d <= Math.max(lastDay, ANCHOR_DAY); d++) if (isTargetDay(d)) allDays.push(d);
    const anchorIndex = allDays.indexOf(ANCHOR_DAY);
    const series = allDays.map(() => new Float64Array(CURRENCIES.length));
    CURRENCIES.forEach(([, anchor, , vol], c) => {
      series[anchorIndex][c] = anchor;
      for (let k = anchorIndex + 1; k < allDays.length; k++)
        series[k][c] = series[k - 1][c] * Math.exp(vol * this.shock(c, allDays[k]));
      for (let k = anchorIndex - 1; k >= 0; k--)
        series[k][c] = series[k + 1][c] / Math.exp(vol * this.shock(c, allDays[k + 1]));
    });
    const keep = allDays.findIndex((d) => d > lastDay);
    this.days.splice(0, this.days.length, ...(keep === -1 ? allDays : allDays.slice(0, keep)));
    this.values.splice(0, this.values.length, ...(keep === -1 ? series : series.slice(0, keep)));
  }

  /** A roughly normal step (mean 0, sd about 1) for one currency and day. */
  private shock(currency: number, day: number): number {
    const rng = Rng.mix(this.seedHash, currency + 100, day);
    return (rng.next() + rng.next() + rng.next() + rng.next() - 2) * 1.732;
  }
}

/** The daily file keeps trailing zeros; the history files drop them. */
export function formatRate(value: number, decimals: number, keepZeros: boolean): string {
  const fixed = value.toFixed(decimals);
  return keepZeros || !fixed.includes('.') ? fixed : fixed.replace(/0+$/, '').replace(/\.$/, '');
}
