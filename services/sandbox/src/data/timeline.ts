import { hash32, Rng, STREAM } from '../core/random';

const DAY = 86_400;
const SEASON = [0.8, 0.85, 0.9, 0.9, 1.0, 0.95, 0.9, 0.95, 1.0, 1.1, 1.45, 1.7];
const WEEKDAY = [0.9, 1.1, 1.05, 1.0, 1.0, 0.95, 0.85];

/**
 * When each of a tenant's `count` orders was placed: a seeded density over the days of the
 * history (weekday and season shape, growth, day-to-day noise) inverted so that order i lands
 * at quantile (i + u_i)/count. Creation times therefore rise with the index, which keeps
 * receipt ids and creation order aligned and lets a time window be found by binary search.
 */
export class Timeline {
  readonly start: number;
  private readonly cumulative: Float64Array;

  private readonly seedHash: number;

  constructor(
    seed: string,
    readonly asOf: number,
    months: number,
    private readonly count: number,
  ) {
    this.seedHash = hash32(seed);
    const days = Math.max(1, Math.round(months * 30.4375));
    this.start = asOf - days * DAY;
    const rng = Rng.of(seed, 'timeline');
    this.cumulative = new Float64Array(days + 1);
    for (let d = 0; d < days; d++) {
      const date = new Date((this.start + d * DAY) * 1000);
      const weight =
        SEASON[date.getUTCMonth()] * WEEKDAY[date.getUTCDay()] * (0.7 + (0.6 * d) / days) * (0.75 + rng.next() * 0.5);
      this.cumulative[d + 1] = this.cumulative[d] + weight;
    }
  }

  createdAt(index: number): number {
    const u = Rng.mix(this.seedHash, STREAM.created, index).next();
    const target = ((index + u) / this.count) * this.cumulative[this.cumulative.length - 1];
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] <= target) lo = mid;
      else hi = mid;
    }
    const frac = (target - this.cumulative[lo]) / (this.cumulative[lo + 1] - this.cumulative[lo]);
    return Math.min(this.asOf, Math.floor(this.start + (lo + frac) * DAY));
  }
}
