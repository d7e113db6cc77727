import { money } from '../money';
import { convertForDisplay } from './converter';
import { formatMarginPercent, marginOf, marginPercentOf } from './margin';

describe('margin', () => {
  it('is the exact fraction, with basis points and a display string rounded half to even', () => {
    expect(marginOf(money(1, 'USD'), money(3, 'USD'))).toEqual({ numerator: 1, denominator: 3, basisPoints: 3333 });
    // 1/8 = 12.5%: one decimal "12.5", none "12" (half to even).
    const eighth = marginOf(money(125, 'USD'), money(1000, 'USD'))!;
    expect([formatMarginPercent(eighth), formatMarginPercent(eighth, 0)]).toEqual(['12.5', '12']);
    expect(formatMarginPercent(marginOf(money(-1, 'USD'), money(3000, 'USD'))!, 2)).toBe('-0.03');
    expect(marginOf(money(-500, 'USD'), money(0, 'USD'))).toBeNull();
  });

  it('keeps the denominator positive', () => {
    expect(marginOf(money(100, 'EUR'), money(-400, 'EUR'))).toEqual({
      numerator: -100,
      denominator: 400,
      basisPoints: -2500,
    });
  });

  it('is a JSON number rounded from the fraction, null without revenue', () => {
    // 1/8 = 12.5% with no decimals: half to even gives 12, where Math.round of a float gives 13.
    expect(marginPercentOf(marginOf(money(2, 'USD'), money(3, 'USD')))).toBe(66.7);
    expect(marginPercentOf(marginOf(money(125, 'USD'), money(1000, 'USD')), 0)).toBe(12);
    expect(marginPercentOf(marginOf(money(-1, 'USD'), money(0, 'USD')))).toBeNull();
  });
});

describe('conversion', () => {
  it('refuses a converter that answers in the wrong currency', () => {
    const wrong = () => ({ amount: money(1, 'EUR'), rate: '1', rateDate: '2026-01-02' });
    expect(() => convertForDisplay(wrong, money(1, 'USD'), 'GBP', '2026-01-02')).toThrow(/answered in EUR/);
  });

  it('needs no rate for an amount already in the display currency', () => {
    const never = () => ({ unavailable: true as const, reason: 'not called' });
    expect(convertForDisplay(never, money(5, 'GBP'), 'GBP', '2026-01-02')).toEqual({
      amount: money(5, 'GBP'),
      rate: '1',
      rateDate: '2026-01-02',
    });
  });
});
