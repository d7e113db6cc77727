import {
  CURRENCY_EXPONENTS,
  DISPLAY_CURRENCY_CODES,
  isCurrencyCode,
  minorUnitExponent,
  parseCurrencyCode,
  UnknownCurrencyError,
} from './currency';
import { ISO_4217_PUBLISHED } from './iso4217';

describe('ISO 4217 exponents', () => {
  it.each([
    ['JPY', 0],
    ['ISK', 0],
    ['KRW', 0],
    ['VND', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
    ['MAD', 2],
    ['TWD', 2],
    ['USD', 2],
    ['EUR', 2],
    ['GBP', 2],
    ['CLF', 4],
  ] as const)('%s has %i decimals', (code, exponent) => {
    expect(minorUnitExponent(parseCurrencyCode(code))).toBe(exponent);
  });

  it('covers every active code of the list, and only codes with a defined minor unit', () => {
    expect(ISO_4217_PUBLISHED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(CURRENCY_EXPONENTS).length).toBeGreaterThan(150);
    for (const [code, exponent] of Object.entries(CURRENCY_EXPONENTS)) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(exponent);
    }
    // Gold, the SDR and the testing code have no minor unit ("N.A."): not money a shop is paid in.
    for (const code of ['XAU', 'XDR', 'XTS', 'XXX']) expect(isCurrencyCode(code)).toBe(false);
  });

  it('reads any letter case and refuses unknown or malformed codes', () => {
    expect(parseCurrencyCode(' mad ')).toBe('MAD');
    for (const bad of ['ABC', 'XAU', 'US', 'USDD', '', null, 42, '__proto__', 'toString'])
      expect(() => parseCurrencyCode(bad)).toThrow(UnknownCurrencyError);
  });

  it('keeps the display currencies', () => {
    expect(DISPLAY_CURRENCY_CODES).toEqual(['USD', 'EUR', 'GBP']);
  });
});
