import { DecimalError, ONE, parsePositiveDecimal, ratioToDecimal, type Ratio } from './decimal';
import { addDaysToIsoDate, isIsoCalendarDate } from '../calendar';
import { latestTargetDayOnOrBefore, nextTargetDay } from './target-calendar';

/** One stored ECB reference rate: `perEur` units of `currency` for 1 EUR on `date`, as the decimal text the ECB wrote. */
export interface FxRateRow {
  date: string;
  currency: string;
  perEur: string;
}

/** How far back a date may reach for the last ECB business day before it (the longest real gap is 4 days, at Easter). */
export const EXCHANGE_LOOKBACK_DAYS = 10;

export type RateUnavailableReason =
  /** Not an ISO calendar date. */
  | 'invalid_date'
  /** The ECB publishes no rate for this currency (e.g. a shop currency outside its 29). */
  | 'currency_not_published'
  /** No ECB rate within the look-back before the date (before 1999, a gap in the table), or the currency was not quoted that day (N/A). */
  | 'no_rate_for_date'
  /** A business day after the last loaded one has come: its rates are not published yet, or not loaded yet. */
  | 'rate_not_loaded';

export interface RateUnavailable {
  readonly unavailable: true;
  readonly reason: RateUnavailableReason;
  /** For people (and logs): which date and currency. */
  readonly message: string;
}

/**
 * A rate given before the ECB day that applies has been loaded: the latest loaded day's rate,
 * standing in until `awaitingRateDate` (the ECB day the date will convert at) is published and
 * loaded. Only for `rate_not_loaded` within the look-back; never for any other missing rate.
 */
export interface ProvisionalRate {
  readonly awaitingRateDate: string;
}

export interface RateLookupOptions {
  /** Answer a provisional rate where the answer would otherwise be `rate_not_loaded` (see ProvisionalRate). */
  readonly allowProvisional?: boolean;
}

export interface CrossRate {
  readonly unavailable: false;
  /** Units of `to` for one unit of `from`, exact. */
  readonly ratio: Ratio;
  /** `ratio` as a decimal string: exact when it terminates within 10 significant digits, else rounded half to even. */
  readonly rate: string;
  /** The ECB day whose rates were used. */
  readonly rateDate: string;
  /** The two ECB rates crossed (units per EUR; "1" for EUR), so the exact rate can always be re-derived. */
  readonly fromPerEur: string;
  readonly toPerEur: string;
  /** Present only when the rate is provisional (asked with `allowProvisional`); `rateDate` is then the latest loaded day. */
  readonly provisional?: ProvisionalRate;
}

export type RateLookup = CrossRate | RateUnavailable;

interface StoredRate {
  ratio: Ratio;
  text: string;
}

const unavailable = (reason: RateUnavailableReason, message: string): RateUnavailable => ({
  unavailable: true,
  reason,
  message,
});

/**
 * A preloaded, immutable table of ECB rates (foreign units per EUR, by date), answering cross
 * rates between any two currencies for a date: the rate of the latest ECB day on or before it
 * (at most EXCHANGE_LOOKBACK_DAYS back), crossed through EUR, exactly. Build it once from the
 * rows a query returned and ask it as many times as needed; it does no I/O.
 */
export class RateTable {
  private readonly byDate = new Map<string, Map<string, StoredRate>>();
  private readonly dates: string[];
  private readonly currencies = new Set<string>(['EUR']);
  /** Answers already given, by date and currencies: the table never changes, and a profit run asks the same few thousand again and again. */
  private readonly answers = new Map<string, RateLookup>();

  private constructor(rows: Iterable<FxRateRow>) {
    for (const row of rows) {
      if (!isIsoCalendarDate(row.date)) throw new DecimalError(`fx rate row has a bad date "${row.date}"`);
      const ratio = parsePositiveDecimal(row.perEur);
      let day = this.byDate.get(row.date);
      if (!day) this.byDate.set(row.date, (day = new Map()));
      day.set(row.currency, { ratio, text: row.perEur });
      this.currencies.add(row.currency);
    }
    this.dates = [...this.byDate.keys()].sort();
  }

  static fromRows(rows: Iterable<FxRateRow>): RateTable {
    return new RateTable(rows);
  }

  get latestDate(): string | null {
    return this.dates.at(-1) ?? null;
  }

  get size(): number {
    return this.dates.length;
  }

  /**
   * The ECB day whose rates apply to `date`, or why there is none. With `allowProvisional`, a
   * date whose ECB day is not loaded yet gets the latest loaded day instead, marked provisional,
   * when that day lies within the look-back before the date.
   */
  rateDateFor(
    date: string,
    options: RateLookupOptions = {},
  ): { unavailable: false; rateDate: string; provisional?: ProvisionalRate } | RateUnavailable {
    if (!isIsoCalendarDate(date)) return unavailable('invalid_date', `"${date}" is not a date (YYYY-MM-DD)`);
    const index = this.latestIndexOnOrBefore(date);
    if (index < 0) return unavailable('no_rate_for_date', `no ECB rates on or before ${date}`);
    const rateDate = this.dates[index];
    const withinLookback = rateDate >= addDaysToIsoDate(date, -EXCHANGE_LOOKBACK_DAYS);
    if (rateDate < date && index === this.dates.length - 1 && nextTargetDay(rateDate) <= date) {
      // A business day after the last loaded one is on or before the date: its rates apply, and we lack them.
      if (options.allowProvisional && withinLookback)
        return { unavailable: false, rateDate, provisional: { awaitingRateDate: latestTargetDayOnOrBefore(date) } };
      const missing = nextTargetDay(rateDate);
      return unavailable(
        'rate_not_loaded',
        `the ECB rates of ${missing} are not published or not loaded yet (latest loaded: ${rateDate})`,
      );
    }
    if (!withinLookback) {
      return unavailable('no_rate_for_date', `no ECB rates within ${EXCHANGE_LOOKBACK_DAYS} days before ${date}`);
    }
    return { unavailable: false, rateDate };
  }

  /**
   * Units of `to` for one unit of `from` on `date` (see the class comment). Same currency: 1 at
   * the date itself. With `allowProvisional`, a date whose ECB day is not loaded yet answers the
   * latest loaded day's rate marked `provisional` (see rateDateFor).
   */
  crossRate(date: string, from: string, to: string, options: RateLookupOptions = {}): RateLookup {
    const provisional = options.allowProvisional === true;
    // Lengths first, so no two questions share a key, whatever text they carry.
    const key = `${provisional ? 'p' : 'f'}${date.length}:${date}${from.length}:${from}${to}`;
    let answer = this.answers.get(key);
    if (!answer) this.answers.set(key, (answer = this.lookUpCrossRate(date, from, to, provisional)));
    return answer;
  }

  private lookUpCrossRate(date: string, from: string, to: string, allowProvisional: boolean): RateLookup {
    if (from === to) {
      if (!isIsoCalendarDate(date)) return unavailable('invalid_date', `"${date}" is not a date (YYYY-MM-DD)`);
      return { unavailable: false, ratio: ONE, rate: '1', rateDate: date, fromPerEur: '1', toPerEur: '1' };
    }
    for (const currency of [from, to]) {
      if (!this.currencies.has(currency))
        return unavailable('currency_not_published', `the ECB publishes no ${currency} rate`);
    }
    const found = this.rateDateFor(date, { allowProvisional });
    if (found.unavailable) return found;
    const fromRate = this.perEur(found.rateDate, from);
    const toRate = this.perEur(found.rateDate, to);
    // A stand-in day that did not quote a currency stands in for nothing: the answer is the one without stand-ins.
    if ((!fromRate || !toRate) && found.provisional) return this.lookUpCrossRate(date, from, to, false);
    if (!fromRate) return unavailable('no_rate_for_date', `the ECB published no ${from} rate on ${found.rateDate}`);
    if (!toRate) return unavailable('no_rate_for_date', `the ECB published no ${to} rate on ${found.rateDate}`);
    // 1 from = (to per EUR) / (from per EUR) to.
    const ratio = { num: toRate.ratio.num * fromRate.ratio.den, den: toRate.ratio.den * fromRate.ratio.num };
    const rate: CrossRate = {
      unavailable: false,
      ratio,
      rate: ratioToDecimal(ratio),
      rateDate: found.rateDate,
      fromPerEur: fromRate.text,
      toPerEur: toRate.text,
    };
    return found.provisional ? { ...rate, provisional: found.provisional } : rate;
  }

  private perEur(date: string, currency: string): StoredRate | undefined {
    if (currency === 'EUR') return { ratio: ONE, text: '1' };
    return this.byDate.get(date)?.get(currency);
  }

  private latestIndexOnOrBefore(date: string): number {
    let low = 0;
    let high = this.dates.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.dates[mid] <= date) {
        found = mid;
        low = mid + 1;
      } else high = mid - 1;
    }
    return found;
  }
}
