import { groupLines, type LineRow } from './matching-inputs.repository';

/** The matcher's lines per side in a stable order, whatever order the rows arrive in (any plan). */
describe('groupLines', () => {
  const line = (shop_id: string, id: string, position: string | number, title: string): LineRow => ({ shop_id, id, position, title, sku: null, quantity: 1 });

  it('orders Etsy lines by transaction id as a string and Printify lines by number', () => {
    const etsy = groupLines([line('s', 'r1', '7-2', 'two'), line('s', 'r1', '7-10', 'ten'), line('s', 'r1', '7-1', 'one')]);
    expect(etsy.get('s\u001fr1')?.map((l) => l.title)).toEqual(['one', 'ten', 'two']);
    const printify = groupLines([line('p', 'o1', 10, 'ten'), line('p', 'o1', 2, 'two'), line('p', 'o1', 1, 'one')]);
    expect(printify.get('p\u001fo1')?.map((l) => l.title)).toEqual(['one', 'two', 'ten']);
  });

  it('keeps sides apart by shop and id, and keeps only the fields the engine scores', () => {
    const groups = groupLines([line('a', '1', '1', 'a1'), line('b', '1', '1', 'b1'), line('a', '2', '1', 'a2')]);
    expect([...groups.keys()].sort()).toEqual(['a\u001f1', 'a\u001f2', 'b\u001f1']);
    expect(groups.get('b\u001f1')).toEqual([{ title: 'b1', sku: null, quantity: 1 }]);
  });
});
