import fc from 'fast-check';
import { parseJsonPreservingBigIntegers } from './json';

describe('JSON with int64 ids', () => {
  it('turns unsafe integers into exact strings and leaves the rest alone', () => {
    expect(
      parseJsonPreservingBigIntegers(
        '{"a":9007199254740993,"b":-9223372036854775807,"c":9007199254740991,"d":1.5e300,"e":"12345678901234567890"}',
      ),
    ).toEqual({
      a: '9007199254740993',
      b: '-9223372036854775807',
      c: 9007199254740991,
      d: 1.5e300,
      e: '12345678901234567890',
    });
    expect(parseJsonPreservingBigIntegers('["say \\"12345678901234567890\\"", 12345678901234567890]')).toEqual([
      'say "12345678901234567890"',
      '12345678901234567890',
    ]);
  });

  it('equals JSON.parse on documents without unsafe integers', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = JSON.parse(text) as unknown;
        const hasUnsafe = /-?\d{16,}/.test(text);
        if (!hasUnsafe) expect(parseJsonPreservingBigIntegers(text)).toEqual(parsed);
      }),
    );
  });

  it('preserves any int64 exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        const value = (parseJsonPreservingBigIntegers(`{"id":${n}}`) as { id: unknown }).id;
        expect(String(value)).toBe(n.toString());
      }),
    );
  });
});
