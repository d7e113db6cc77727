import { groupLines, type LineRow } from './matching-inputs.repository';

/** The matcher's lines per side in a stable order, whatever order the rows arrive in (any plan). */
describe('groupLines', () => {
  const line = (shop_id: string, id: string, position: string | number, title: string): LineRow => ({
    shop_id,
    id,
    position,
    title,
    sku: null,
    quantity: 1,
  });

  it('orders Etsy lines by transaction id as a string and Printify lines by number', () => {
    const etsy = groupLines([
      line('s', 'r1', '7-2', 'two'),
      line('s', 'r1', '7-10', 'ten'),
      line('s', 'r1', '7-1', 'one'),
    ]);
    expect(etsy.get('s', 'r1')?.map((l) => l.title)).toEqual(['one', 'ten', 'two']);
    const printify = groupLines([line('p', 'o1', 10, 'ten'), line('p', 'o1', 2, 'two'), line('p', 'o1', 1, 'one')]);
    expect(printify.get('p', 'o1')?.map((l) => l.title)).toEqual(['one', 'two', 'ten']);
  });

  it('keeps sides apart by shop and id, and keeps only the fields the engine scores', () => {
    const groups = groupLines([line('a', '1', '1', 'a1'), line('b', '1', '1', 'b1'), line('a', '2', '1', 'a2')]);
    expect(
      [groups.get('a', '1'), groups.get('a', '2'), groups.get('b', '1')].map((lines) => lines?.map((l) => l.title)),
    ).toEqual([['a1'], ['a2'], ['b1']]);
    expect(groups.get('b', '2')).toBeUndefined();
    expect(groups.get('b', '1')).toEqual([{ title: 'b1', sku: null, quantity: 1 }]);
  });
});
