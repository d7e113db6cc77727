import { DecimalError, divideHalfEven, parsePositiveDecimal, ratioToDecimal } from './decimal';

describe('exact decimals', () => {
  it('parses plain positive decimals exactly and refuses anything else', () => {
    expect(parsePositiveDecimal('0.86503')).toEqual({ num: 86503n, den: 100000n });
    expect(parsePositiveDecimal('182.5')).toEqual({ num: 1825n, den: 10n });
    expect(parsePositiveDecimal('7')).toEqual({ num: 7n, den: 1n });
    for (const bad of ['', '-1', '1e3', ' 1', '1.', '.5', '0', '0.000', 'N/A', '1,5', '1'.repeat(40)])
      expect(() => parsePositiveDecimal(bad)).toThrow(DecimalError);
  });

  it('rounds half to even, both signs', () => {
    expect([5n, 15n, 25n, -5n, -15n, 14n, 16n, -16n].map((n) => divideHalfEven(n, 10n))).toEqual([
      0n,
      2n,
      2n,
      0n,
      -2n,
      1n,
      2n,
      -2n,
    ]);
    expect(divideHalfEven(7n, -2n)).toBe(-4n);
    expect(() => divideHalfEven(1n, 0n)).toThrow(DecimalError);
  });

  it('writes ratios as decimals: exact when they terminate, else 10 significant digits', () => {
    expect(ratioToDecimal({ num: 86503n, den: 100000n })).toBe('0.86503');
    expect(ratioToDecimal({ num: 86503n * 10000n, den: 100000n * 11476n })).toBe('0.7537730917'); // 0.86503 / 1.1476
    expect(ratioToDecimal({ num: 1n, den: 3n })).toBe('0.3333333333');
    expect(ratioToDecimal({ num: 195305n, den: 10n })).toBe('19530.5');
    expect(ratioToDecimal({ num: 1n, den: 195305n })).toBe('0.000005120196616');
    expect(ratioToDecimal({ num: 2n, den: 1n })).toBe('2');
    expect(ratioToDecimal({ num: 123456789012345n, den: 1n })).toBe('123456789000000');
  });
});
