import { hash32, Rng } from '../core/random';
import { dayNumberOf, isTargetDay } from './calendar';

/**
 * A plausible, deterministic history of ECB reference rates (foreign units per 1 EUR): per
 * currency a seeded mean-reverting walk (an Ornstein-Uhlenbeck process on the log rate, reflected
 * at the currency's band) through the real fixing of the anchor day 2026-03-13, so the values of a
 * day never change as time passes, every day stays in the band the currency really kept in
 * 2025-2026, and the daily moves have about the real size. The currency order and decimals follow
 * the ECB's files. BGN appears, fixed, until it left the list at the end of 2025. Calibration and
 * sources: docs/adr/0024-sandbox-real-profit-cases.md.
 */
export const CURRENCIES: ReadonlyArray<
  readonly [code: string, anchor: number, decimals: number, dailyVol: number, low: number, high: number]
> = [
  // USD and GBP: the ECB's real fixing of 2026-03-13; the others are plausible values of that day.
  ['USD', 1.1476, 4, 0.0035, 1.02, 1.19],
  ['JPY', 182.5, 2, 0.005, 155, 186],
  ['BGN', 1.9558, 4, 0, 1.9558, 1.9558],
  ['CZK', 24.3, 3, 0.002, 24.0, 25.5],
  ['DKK', 7.4691, 4, 0.0001, 7.455, 7.475],
  ['GBP', 0.86503, 5, 0.003, 0.83, 0.88],
  ['HUF', 384.2, 2, 0.004, 380, 415],
  ['PLN', 4.22, 4, 0.002, 4.15, 4.35],
  ['RON', 5.09, 4, 0.001, 4.95, 5.15],
  ['SEK', 10.78, 4, 0.004, 10.6, 11.6],
  ['CHF', 0.931, 4, 0.003, 0.9, 0.96],
  ['ISK', 147.8, 2, 0.003, 140, 155],
  ['NOK', 11.82, 4, 0.004, 11.2, 12.1],
  ['TRY', 50.3, 4, 0.006, 38, 55],
  ['AUD', 1.752, 4, 0.005, 1.6, 1.82],
  ['BRL', 6.42, 4, 0.007, 5.9, 6.7],
  ['CAD', 1.611, 4, 0.004, 1.45, 1.66],
  ['CNY', 8.19, 4, 0.003, 7.5, 8.6],
  ['HKD', 9.12, 4, 0.004, 8.0, 9.3],
  ['IDR', 19530.5, 2, 0.004, 17000, 20000],
  ['ILS', 3.76, 4, 0.005, 3.6, 4.2],
  ['INR', 105.2, 4, 0.004, 89, 107],
  ['KRW', 1692.3, 2, 0.005, 1450, 1750],
  ['MXN', 21.1, 4, 0.006, 20, 22.5],
  ['MYR', 4.77, 4, 0.004, 4.6, 5.0],
  ['NZD', 2.02, 4, 0.005, 1.8, 2.1],
  ['PHP', 68.9, 3, 0.004, 59, 71],
  ['SGD', 1.509, 4, 0.003, 1.4, 1.54],
  ['THB', 36.9, 3, 0.004, 35, 39],
  ['ZAR', 19.6, 4, 0.007, 19, 21.2],
];
const ANCHOR_DATE = '2026-03-13';
const ANCHOR_DAY = dayNumberOf(ANCHOR_DATE);
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

  /**
   * The rate of `code` per EUR as published (rounded to the file's decimals) for the latest
   * TARGET day at or before `day`: what a conversion on a weekend or holiday uses.
   */
  fixingOnOrBefore(code: string, day: number): number {
    const c = CURRENCIES.findIndex(([name]) => name === code);
    if (c < 0) throw new Error(`no ECB rate for ${code}`);
    this.extendTo(Math.max(day, FIRST_DAY));
    let lo = 0;
    let hi = this.days.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.days[mid] <= day) lo = mid;
      else hi = mid - 1;
    }
    return Number(this.values[lo][c].toFixed(CURRENCIES[c][2]));
  }

  private extendTo(lastDay: number): void {
    const known = this.days.length > 0 ? this.days[this.days.length - 1] : FIRST_DAY - 1;
    if (lastDay <= known) return;
    const allDays: number[] = [];
    for (let d = FIRST_DAY; d <= Math.max(lastDay, ANCHOR_DAY); d++) if (isTargetDay(d)) allDays.push(d);
    const anchorIndex = allDays.indexOf(ANCHOR_DAY);
    const series = allDays.map(() => new Float64Array(CURRENCIES.length));
    CURRENCIES.forEach(([, anchor, , vol, low, high], c) => {
      const walk = meanReverting(anchor, vol, low, high);
      series[anchorIndex][c] = anchor;
      // A stationary OU process reads the same backwards, so the past is drawn with the same step.
      for (let k = anchorIndex + 1; k < allDays.length; k++)
        series[k][c] = walk(series[k - 1][c], this.shock(c, allDays[k]));
      for (let k = anchorIndex - 1; k >= 0; k--) series[k][c] = walk(series[k + 1][c], this.shock(c, allDays[k + 1]));
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

/**
 * One day's step of a currency: log rate x moves to m + phi (x - m) + vol * shock, m the log of
 * the band's geometric middle and phi chosen so the walk's long-run spread is a fifth of the
 * band's log width (it wanders over the band, the real series did), reflected at the edges so
 * no day ever leaves the band.
 */
function meanReverting(
  anchor: number,
  vol: number,
  low: number,
  high: number,
): (rate: number, shock: number) => number {
  if (vol === 0 || high <= low) return () => anchor;
  const lo = Math.log(low);
  const hi = Math.log(high);
  const mean = (lo + hi) / 2;
  const spread = (hi - lo) / 5;
  const phi = vol < spread ? Math.sqrt(1 - (vol / spread) ** 2) : 0.9;
  return (rate, shock) => {
    let x = mean + phi * (Math.log(rate) - mean) + vol * shock;
    if (x > hi) x = 2 * hi - x;
    if (x < lo) x = 2 * lo - x;
    return Math.exp(Math.min(hi, Math.max(lo, x)));
  };
}

const shared = new Map<string, RateHistory>();

/** One history per root seed, shared by the ECB files and the ledgers that convert with it. */
export function ratesFor(seed: string): RateHistory {
  let history = shared.get(seed);
  if (!history) shared.set(seed, (history = new RateHistory(seed)));
  return history;
}

/** The daily file keeps trailing zeros; the history files drop them. */
export function formatRate(value: number, decimals: number, keepZeros: boolean): string {
  const fixed = value.toFixed(decimals);
  return keepZeros || !fixed.includes('.') ? fixed : fixed.replace(/0+$/, '').replace(/\.$/, '');
}
