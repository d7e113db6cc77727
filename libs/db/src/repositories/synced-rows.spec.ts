import fc from 'fast-check';
import { jsonForPostgres } from './synced-rows';

/**
 * jsonForPostgres skips its replacer when the text has no U+0000 to drop: its answer must be the
 * replacer's own for any value (hashes of stored payloads and figures depend on the exact text).
 * Randomized: the seed is printed; FC_SEED=<seed> replays it.
 */
const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
beforeAll(() => console.log(`jsonForPostgres: fast-check seed ${seed} (FC_SEED=${seed} replays it)`));

const withReplacer = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'string' && inner.includes('\u0000') ? inner.replaceAll('\u0000', '') : inner,
  );

// Strings rich in what matters here: U+0000, backslashes and the letters of an escape.
const tricky = fc.string({ unit: fc.constantFrom('\u0000', '\\', 'u', '0', 'a', '"', '\u0001') });

describe('jsonForPostgres', () => {
  it('drops U+0000 from strings, also nested, and keeps the rest', () => {
    expect(jsonForPostgres({ a: 'x\u0000y', b: ['\u0000'], c: { d: 1 } })).toBe('{"a":"xy","b":[""],"c":{"d":1}}');
    expect(jsonForPostgres({ a: 'x\\u0000y' })).toBe('{"a":"x\\\\u0000y"}');
    expect(jsonForPostgres([1, null, true, 'é'])).toBe('[1,null,true,"é"]');
  });

  it('answers exactly what the replacer answers, for any value', () => {
    const value = fc
      .jsonValue()
      .chain((json) =>
        fc.tuple(fc.constant(json), fc.array(tricky, { maxLength: 4 }), fc.dictionary(tricky, tricky, { maxKeys: 3 })),
      );
    fc.assert(
      fc.property(value, ([json, strings, record]) => {
        const input = { json, strings, record, date: new Date(0) };
        expect(jsonForPostgres(input)).toBe(withReplacer(input));
      }),
      { seed, numRuns: 500 },
    );
  });
});
