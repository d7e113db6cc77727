import { readsAsOne, renumbered, type SqlRead } from './sql-read';

const read = <T>(text: string, values: unknown[], shape: 'row' | 'rows', parse: SqlRead<T>['parse']): SqlRead<T> => ({
  text,
  values,
  shape,
  parse,
});

describe('reads as one statement', () => {
  it('moves each read’s parameters after the ones before it, $10 and up included', () => {
    expect(renumbered('a = $1 AND b = $2::date AND c = $10', 3, 10)).toBe('a = $4 AND b = $5::date AND c = $13');
    expect(() => renumbered('a = $3', 0, 2)).toThrow('a read names $3 but has 2 values');
    expect(() => renumbered('a = $0', 0, 2)).toThrow('a read names $0 but has 2 values');
  });

  it('selects each read as a JSON column and hands each its own rows back', () => {
    const sums = read(
      'SELECT sum(x)::text AS total FROM t WHERE user_id = $1 AND day >= $2',
      ['u', '2026-01-01'],
      'row',
      (rows) => rows.map((row) => row.total),
    );
    const days = read('SELECT day FROM t WHERE user_id = $1 ORDER BY 1', ['u'], 'rows', (rows) =>
      rows.map((row) => row.day),
    );
    const one = readsAsOne({ sums, days });
    expect(one.values).toEqual(['u', '2026-01-01', 'u']);
    expect(one.text).toBe(
      'SELECT (SELECT row_to_json(part) FROM (SELECT sum(x)::text AS total FROM t WHERE user_id = $1 AND day >= $2) part) AS part_0,\n' +
        "(SELECT coalesce(json_agg(part), '[]') FROM (SELECT day FROM t WHERE user_id = $3 ORDER BY 1) part) AS part_1",
    );
    expect(one.parse([{ part_0: { total: '12' }, part_1: [{ day: 'a' }, { day: 'b' }] }])).toEqual({
      sums: ['12'],
      days: ['a', 'b'],
    });
    // A single-row read that found no row, and a many-row read with none, get no rows.
    expect(one.parse([{ part_0: null, part_1: [] }])).toEqual({ sums: [], days: [] });
  });
});
