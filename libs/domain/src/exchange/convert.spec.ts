import fc from 'fast-check';
import { minorUnitExponent, type CurrencyCode } from '../currency';
import { money } from '../money';
import { convertMany } from '@pod/testing/oracles';
import { convertMoney } from './convert';
import { RateTable } from './rate-table';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
console.log(`exchange conversion fast-check seed ${seed} (FC_SEED=${seed} replays it)`);
const params = { seed, numRuns: 300 };

/** A rate as the ECB writes one, between 0.1 and 30,000 per EUR, with 2 to 5 decimals. */
const rateText = fc.integer({ min: 2, max: 5 }).chain((decimals) =>
  fc.integer({ min: 10 ** (decimals - 1), max: 3 * 10 ** (4 + decimals) }).map((digits) => {
    const text = String(digits).padStart(decimals + 1, '0');
    return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
  }),
);
const amountMinor = fc.integer({ min: -100_000_000, max: 100_000_000 });
const CURRENCIES: CurrencyCode[] = ['USD', 'GBP', 'JPY', 'ISK', 'KRW', 'CHF', 'IDR', 'HUF'];

function tableOf(rates: Partial<Record<CurrencyCode, string>>, date = '2026-03-13'): RateTable {
  return RateTable.fromRows(
    Object.entries(rates).map(([currency, perEur]) => ({ date, currency, perEur: perEur as string })),
  );
}

/** The decimal text as numerator and denominator, written separately from the code under test. */
function fraction(text: string): [bigint, bigint] {
  const [whole, decimals = ''] = text.split('.');
  return [BigInt(whole + decimals), 10n ** BigInt(decimals.length)];
}

describe('convertMoney', () => {
  it("converts §c.3's worked example: USD 100.00 on Saturday 2026-03-14 is GBP 75.38 at Friday's rates", () => {
    const table = tableOf({ USD: '1.1476', GBP: '0.86503' });
    expect(convertMoney(table, money(10_000, 'USD'), 'GBP', '2026-03-14')).toEqual({
      unavailable: false,
      amount: money(7_538, 'GBP'),
      rate: '0.7537730917',
      rateDate: '2026-03-13',
      fromPerEur: '1.1476',
      toPerEur: '0.86503',
    });
  });

  it("respects each currency's minor unit (JPY 0) and rounds half to even once", () => {
    const table = tableOf({ JPY: '170', USD: '1.25' });
    expect(convertMoney(table, money(1_000, 'USD'), 'JPY', '2026-03-13')).toMatchObject({
      amount: money(1_360, 'JPY'),
    }); // $10.00 → ¥1360
    expect(convertMoney(table, money(1_360, 'JPY'), 'USD', '2026-03-13')).toMatchObject({
      amount: money(1_000, 'USD'),
    });
    // 1 JPY = 1.25/170 USD = 0.735 cents: rounds to 1; 0.5 cent ties go to even.
    expect(convertMoney(table, money(1, 'JPY'), 'USD', '2026-03-13')).toMatchObject({ amount: money(1, 'USD') });
    expect(convertMoney(tableOf({ USD: '2' }), money(1, 'EUR'), 'USD', '2026-03-13')).toMatchObject({
      amount: money(2, 'USD'),
    });
    expect(convertMoney(tableOf({ USD: '0.5' }), money(1, 'EUR'), 'USD', '2026-03-13')).toMatchObject({
      amount: money(0, 'USD'),
    }); // 0.5 → 0
    expect(convertMoney(tableOf({ USD: '0.5' }), money(3, 'EUR'), 'USD', '2026-03-13')).toMatchObject({
      amount: money(2, 'USD'),
    }); // 1.5 → 2
  });

  it('never returns the unconverted amount when the rate is missing', () => {
    const table = tableOf({ USD: '1.1476' });
    expect(convertMoney(table, money(500, 'MAD'), 'USD', '2026-03-13')).toEqual({
      unavailable: true,
      reason: 'currency_not_published',
      message: expect.stringContaining('MAD'),
    });
    expect(convertMoney(table, money(500, 'USD'), 'EUR', '2026-03-16')).toMatchObject({
      unavailable: true,
      reason: 'rate_not_loaded',
    });
  });

  it('keeps same-currency amounts at rate 1 on the given date', () => {
    expect(convertMoney(tableOf({}), money(123, 'TWD'), 'TWD', '2026-03-15')).toMatchObject({
      amount: money(123, 'TWD'),
      rate: '1',
      rateDate: '2026-03-15',
    });
  });

  it('convertMany answers in request order', () => {
    const table = tableOf({ USD: '1.1476', GBP: '0.86503' });
    const results = convertMany(table, [
      { amount: money(10_000, 'USD'), to: 'GBP', date: '2026-03-13' },
      { amount: money(10_000, 'USD'), to: 'MAD', date: '2026-03-13' },
      { amount: money(10_000, 'USD'), to: 'USD', date: '2026-03-13' },
    ]);
    expect(results.map((r) => (r.unavailable ? r.reason : r.amount.amountMinor))).toEqual([
      7_538,
      'currency_not_published',
      10_000,
    ]);
  });

  it('A→B equals the amount times the rational cross rate (B per EUR ÷ A per EUR), rounded half to even, in whole minor units', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCIES),
        fc.constantFrom(...CURRENCIES),
        rateText,
        rateText,
        amountMinor,
        (from, to, fromRate, toRate, minor) => {
          fc.pre(from !== to);
          const table = tableOf({ [from]: fromRate, [to]: toRate });
          const result = convertMoney(table, money(minor, from), to, '2026-03-13');
          if (result.unavailable) throw new Error(result.message);
          expect(Number.isSafeInteger(result.amount.amountMinor)).toBe(true);
          const [fn, fd] = fraction(fromRate);
          const [tn, td] = fraction(toRate);
          // exact = minor × 10^(eTo − eFrom) × (tn/td) / (fn/fd), as one fraction p/q with q > 0.
          const p = BigInt(minor) * tn * fd * 10n ** BigInt(minorUnitExponent(to));
          const q = td * fn * 10n ** BigInt(minorUnitExponent(from));
          const r = BigInt(result.amount.amountMinor);
          const error = r * q - p; // (result − exact) × q
          const twice = (error < 0n ? -error : error) * 2n;
          expect(twice <= q).toBe(true); // within half a minor unit
          if (twice === q) expect(r % 2n).toBe(0n); // a tie goes to the even neighbour
          // The cross rate is the product of the two legs through EUR (A→EUR, EUR→B), exactly.
          const cross = table.crossRate('2026-03-13', from, to);
          const toEur = table.crossRate('2026-03-13', from, 'EUR');
          const fromEur = table.crossRate('2026-03-13', 'EUR', to);
          if (cross.unavailable || toEur.unavailable || fromEur.unavailable) throw new Error('rates missing');
          expect(cross.ratio.num * toEur.ratio.den * fromEur.ratio.den).toBe(
            cross.ratio.den * toEur.ratio.num * fromEur.ratio.num,
          );
        },
      ),
      params,
    );
  });

  it("A→EUR→A comes back within half a EUR cent (in A) plus half a minor unit: one minor unit where A's unit is worth a cent or more", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CURRENCIES), rateText, amountMinor, (currency, rate, minor) => {
        const table = tableOf({ [currency]: rate });
        const there = convertMoney(table, money(minor, currency), 'EUR', '2026-03-13');
        if (there.unavailable) throw new Error(there.message);
        const back = convertMoney(table, there.amount, currency, '2026-03-13');
        if (back.unavailable) throw new Error(back.message);
        const diff = BigInt(Math.abs(back.amount.amountMinor - minor));
        const [n, d] = fraction(rate);
        const scale = 10n ** BigInt(minorUnitExponent(currency));
        // |diff| ≤ ½ × (n/d) × scale / 100 + ½  ⇔  200·d·|diff| ≤ n·scale + 100·d
        expect(200n * d * diff <= n * scale + 100n * d).toBe(true);
        if (n * scale <= 100n * d) expect(diff <= 1n).toBe(true);
      }),
      params,
    );
  });
});
