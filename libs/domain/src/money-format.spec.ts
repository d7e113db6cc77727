import fc from 'fast-check';
import { formatMinorUnits } from './money-format';

describe('formatMinorUnits', () => {
  it('shows the spec symbols, en-US grouping and exactly two decimals', () => {
    expect(formatMinorUnits(123456, 'USD')).toBe('$1,234.56');
    expect(formatMinorUnits(5, 'EUR')).toBe('€0.05');
    expect(formatMinorUnits(-5, 'GBP')).toBe('-£0.05');
    expect(formatMinorUnits(0, 'USD')).toBe('$0.00');
    expect(formatMinorUnits(1200, 'JPY')).toBe('¥1,200.00');
    expect(formatMinorUnits(100000000, 'CAD')).toBe('C$1,000,000.00');
    expect(formatMinorUnits(999, 'AUD')).toBe('A$9.99');
    expect(formatMinorUnits(1250, 'CHF')).toBe('CHF\u00a012.50');
    expect(formatMinorUnits(-1250, 'SEK')).toBe('-kr\u00a012.50');
    expect(formatMinorUnits(1250, 'PLN')).toBe('PLN\u00a012.50');
  });

  it('refuses a fraction of a minor unit instead of rounding it', () => {
    expect(() => formatMinorUnits(1.5, 'USD')).toThrow(RangeError);
  });

  it('prints every safe amount exactly: the digits read back are the minor units', () => {
    const seed = Math.floor(Math.random() * 2 ** 31);
    console.log(`formatMinorUnits property seed: ${seed}`);
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        fc.constantFrom('USD', 'EUR', 'GBP', 'JPY', 'NOK'),
        (minor, currency) => {
          const text = formatMinorUnits(minor, currency);
          const digits = text.replace(/[^\d]/g, '');
          const expected = currency === 'JPY' ? `${Math.abs(minor)}00` : String(Math.abs(minor)).padStart(3, '0');
          expect(digits).toBe(expected);
          expect(text.startsWith('-')).toBe(minor < 0);
          expect(/\.\d{2}$/.test(text)).toBe(true);
        },
      ),
      { seed },
    );
  });
});
