import { dayNumberOf, isoDate } from './calendar';
import { formatRate, RateHistory } from './rates';

/**
 * Written from the ECB's real series (docs/adr/0024): the fixing of 2026-03-13 was USD 1.1476 and
 * GBP 0.86503 per EUR; in 2025-2026 GBP stayed within 0.83-0.88 and USD within about 1.02-1.19;
 * a major pair moves about 0.3 % a day (standard deviation of the daily log change).
 */
const BANDS: Record<string, [number, number]> = { USD: [1.02, 1.19], GBP: [0.83, 0.88] };
/** Plausible 2025-2026 bands of the others: a value far outside is a broken walk. */
const PLAUSIBLE: Record<string, [number, number]> = {
  JPY: [150, 190],
  CZK: [23.5, 26],
  DKK: [7.45, 7.48],
  HUF: [375, 420],
  PLN: [4.1, 4.4],
  CHF: [0.89, 0.97],
  AUD: [1.55, 1.85],
  CAD: [1.44, 1.68],
  TRY: [36, 56],
};

describe('sandbox ECB rates: calibrated to the real series', () => {
  const seeds = ['podprofit-demo', 'demo', 'test'];
  const first = dayNumberOf('2025-01-02');
  const last = dayNumberOf('2026-11-27');

  it.each(seeds)('publishes the real 2026-03-13 fixing exactly (seed %s)', (seed) => {
    const [day] = new RateHistory(seed).history(dayNumberOf('2026-03-13'), dayNumberOf('2026-03-13'));
    expect(isoDate(day.day)).toBe('2026-03-13');
    const published = new Map(day.rates.map(([code, value, decimals]) => [code, formatRate(value, decimals, true)]));
    expect(published.get('USD')).toBe('1.1476');
    expect(published.get('GBP')).toBe('0.86503');
  });

  it.each(seeds)('keeps USD, GBP and the others in their bands on every day of 2025-2026 (seed %s)', (seed) => {
    const days = new RateHistory(seed).history(last, first);
    expect(days.length).toBeGreaterThan(450);
    const outside: string[] = [];
    for (const day of days)
      for (const [code, value] of day.rates) {
        const band = BANDS[code] ?? PLAUSIBLE[code];
        if (band && (value < band[0] || value > band[1])) outside.push(`${isoDate(day.day)} ${code} ${value}`);
      }
    expect(outside).toEqual([]);
  });

  it.each(seeds)('moves USD and GBP about 0.3 %% a day and lets them wander over the band (seed %s)', (seed) => {
    const days = new RateHistory(seed).history(last, first).reverse();
    for (const code of ['USD', 'GBP']) {
      const values = days.map((d) => d.rates.find(([c]) => c === code)?.[1] as number);
      const changes = values.slice(1).map((v, k) => Math.log(v / values[k]));
      const mean = changes.reduce((s, x) => s + x, 0) / changes.length;
      const sd = Math.sqrt(changes.reduce((s, x) => s + (x - mean) ** 2, 0) / changes.length);
      expect({ code, sd: sd > 0.0018 && sd < 0.0045 }).toEqual({ code, sd: true });
      // Not pinned to one value: the walk covers a fair part of the band over two years.
      const [low, high] = BANDS[code];
      expect((Math.max(...values) - Math.min(...values)) / (high - low)).toBeGreaterThan(0.25);
    }
  });

  it('converts a weekend day at the Friday fixing', () => {
    const rates = new RateHistory('podprofit-demo');
    expect(rates.fixingOnOrBefore('USD', dayNumberOf('2026-03-14'))).toBe(1.1476);
    expect(rates.fixingOnOrBefore('GBP', dayNumberOf('2026-03-15'))).toBe(0.86503);
  });
});
