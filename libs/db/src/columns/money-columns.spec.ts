import { currencyCodeTransformer, minorUnitsTransformer, UnsafeMinorUnitsError } from './money-columns';

describe('minorUnitsTransformer (bigint money columns)', () => {
  it('reads the strings pg returns for bigint as numbers', () => {
    expect(minorUnitsTransformer.from('1250')).toBe(1250);
    expect(minorUnitsTransformer.from('-399')).toBe(-399);
    expect(minorUnitsTransformer.from('0')).toBe(0);
    expect(minorUnitsTransformer.from(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(minorUnitsTransformer.from(String(-Number.MAX_SAFE_INTEGER))).toBe(-Number.MAX_SAFE_INTEGER);
    expect(minorUnitsTransformer.from(null)).toBeNull();
  });

  it('throws beyond Number.MAX_SAFE_INTEGER instead of rounding', () => {
    expect(() => minorUnitsTransformer.from('9007199254740992')).toThrow(UnsafeMinorUnitsError);
    expect(() => minorUnitsTransformer.from('9007199254740993')).toThrow(UnsafeMinorUnitsError);
    expect(() => minorUnitsTransformer.from('-9007199254740993')).toThrow(UnsafeMinorUnitsError);
    expect(() => minorUnitsTransformer.from('9223372036854775807')).toThrow(UnsafeMinorUnitsError);
  });

  it('refuses what is not a whole number of minor units', () => {
    for (const bad of ['12.5', '', 'abc', '1e3', 12.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => minorUnitsTransformer.from(bad)).toThrow(UnsafeMinorUnitsError);
    }
  });

  it('writes safe integers and refuses anything else before it reaches PostgreSQL', () => {
    expect(minorUnitsTransformer.to(1250)).toBe(1250);
    expect(minorUnitsTransformer.to(null)).toBeNull();
    expect(() => minorUnitsTransformer.to(0.1 + 0.2)).toThrow(UnsafeMinorUnitsError);
    expect(() => minorUnitsTransformer.to(2 ** 53)).toThrow(UnsafeMinorUnitsError);
    expect(() => minorUnitsTransformer.to('12.50')).toThrow(UnsafeMinorUnitsError);
  });
});

describe('currencyCodeTransformer', () => {
  it('passes ISO 4217 codes it knows and refuses others', () => {
    expect(currencyCodeTransformer.from('JPY')).toBe('JPY');
    expect(currencyCodeTransformer.to('EUR')).toBe('EUR');
    expect(currencyCodeTransformer.from(null)).toBeNull();
    expect(() => currencyCodeTransformer.from('XYZ')).toThrow();
    expect(currencyCodeTransformer.to('usd ')).toBe('USD');
    expect(() => currencyCodeTransformer.to('US')).toThrow();
  });
});
