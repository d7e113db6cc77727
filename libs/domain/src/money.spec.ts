import fc from 'fast-check';
import { parseCurrencyCode, UnknownCurrencyError } from './currency';
import {
  fromRatio,
  MixedCurrencyError,
  money,
  MoneyError,
  parseDecimal,
  subtractMoney,
  sumMoney,
  toDecimalString,
} from './money';

describe('currency codes', () => {
  it('accepts any case and refuses unknown codes', () => {
    expect(parseCurrencyCode(' usd ')).toBe('USD');
    expect(() => parseCurrencyCode('XYZ')).toThrow(UnknownCurrencyError);
    expect(() => parseCurrencyCode(42)).toThrow(UnknownCurrencyError);
  });
});

describe('minor units', () => {
  it('refuses floats, NaN and unsafe integers', () => {
    for (const bad of [1.5, Number.NaN, Infinity, 2 ** 53]) expect(() => money(bad, 'USD')).toThrow(MoneyError);
    expect(money(-0, 'USD').amountMinor).toBe(0);
  });

  it('parses decimals exactly per currency exponent', () => {
    expect(parseDecimal('12.50', 'USD').amountMinor).toBe(1250);
    expect(parseDecimal('0.1', 'EUR').amountMinor).toBe(10);
    expect(parseDecimal('-3', 'GBP').amountMinor).toBe(-300);
    expect(parseDecimal('1200', 'JPY').amountMinor).toBe(1200);
    expect(parseDecimal('1.230', 'USD').amountMinor).toBe(123);
    expect(() => parseDecimal('1.234', 'USD')).toThrow(/more decimals/);
    expect(() => parseDecimal('1.5', 'JPY')).toThrow(/more decimals/);
    expect(() => parseDecimal('1,50', 'USD')).toThrow(/not a decimal/);
  });

  it('round-trips decimal strings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom('USD' as const, 'EUR' as const, 'JPY' as const),
        (amount, currency) => {
          const value = money(amount, currency);
          expect(parseDecimal(toDecimalString(value), currency)).toEqual(value);
        },
      ),
    );
    expect(toDecimalString(money(-5, 'USD'))).toBe('-0.05');
  });
});

describe("Etsy's {amount, divisor}", () => {
  it('converts exact ratios exactly', () => {
    expect(fromRatio(1999, 100, 'USD')).toEqual({ money: money(1999, 'USD'), exact: true });
    expect(fromRatio(25000, 1000, 'EUR')).toEqual({ money: money(2500, 'EUR'), exact: true });
    expect(fromRatio(1500, 1, 'JPY')).toEqual({ money: money(1500, 'JPY'), exact: true });
  });

  it('rounds inexact ratios half to even and says so', () => {
    expect(fromRatio(12345, 1000, 'USD')).toEqual({ money: money(1234, 'USD'), exact: false });
    expect(fromRatio(12355, 1000, 'USD')).toEqual({ money: money(1236, 'USD'), exact: false });
    expect(fromRatio(-12355, 1000, 'USD')).toEqual({ money: money(-1236, 'USD'), exact: false });
    expect(() => fromRatio(1, 0, 'USD')).toThrow(MoneyError);
  });

  it('never differs from the true value by more than half a minor unit', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.constantFrom(1, 10, 100, 1000, 3, 7), (amount, divisor) => {
        const { money: value } = fromRatio(amount, divisor, 'USD');
        expect(Math.abs(value.amountMinor - (amount * 100) / divisor)).toBeLessThanOrEqual(0.5);
      }),
    );
  });
});

describe('arithmetic', () => {
  it('sums one currency and refuses to mix', () => {
    expect(sumMoney([money(100, 'USD'), money(-30, 'USD')], 'USD')).toEqual(money(70, 'USD'));
    expect(() => sumMoney([money(100, 'USD'), money(1, 'EUR')], 'USD')).toThrow(MixedCurrencyError);
    expect(() => subtractMoney(money(1, 'USD'), money(1, 'GBP'))).toThrow(MixedCurrencyError);
  });
});
