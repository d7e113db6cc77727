import { rankManualCandidates, type CandidateRecord } from './candidates';
import type { PrintifyOrderToMatch, ReceiptToMatch } from './types';

const mug = [{ title: 'Cat Mug 11oz', sku: 'MUG-CAT-11', quantity: 1 }];
const receipt = (id: string, buyerName: string, iso = '2026-05-01T10:00:00Z'): ReceiptToMatch => ({
  shopId: 'e',
  receiptId: id,
  buyerName,
  orderedAt: new Date(iso),
  lines: mug,
});
const order = (id: string, buyerName: string, iso = '2026-05-01T11:00:00Z'): PrintifyOrderToMatch => ({
  shopId: 'p',
  orderId: id,
  shopOrderId: null,
  shopOrderLabel: null,
  isReprint: false,
  buyerName,
  orderedAt: new Date(iso),
  lines: mug,
});
const record = (id: string, over: Partial<CandidateRecord>): CandidateRecord => ({
  id,
  status: 'unmatched',
  archived: false,
  receipt: null,
  order: null,
  ...over,
});

describe('rankManualCandidates (spec §5)', () => {
  const selected = record('sel', { receipt: receipt('1', 'Ada Lovelace') });

  it('lists lone records of the other side, not matched nor archived, best first', () => {
    const records = [
      record('far', { order: order('a', 'Ada Lovelace', '2026-05-30T00:00:00Z') }),
      record('best', { order: order('b', 'Ada Lovelace') }),
      record('other-name', { order: order('c', 'Grace Hopper') }),
      record('same-side', { receipt: receipt('2', 'Ada Lovelace') }),
      record('pair', { status: 'pending', receipt: receipt('3', 'Ada'), order: order('d', 'Ada') }),
      record('matched', { status: 'matched', order: order('e', 'Ada Lovelace') }),
      record('archived', { archived: true, order: order('f', 'Ada Lovelace') }),
    ];
    const ranked = rankManualCandidates(selected, records);
    expect(ranked.map((candidate) => candidate.id)).toEqual(['best', 'other-name']);
    expect(ranked[0].fit).toEqual({ score: 1, buyerName: 1, date: 1, items: 1 });
    expect(ranked[1].fit.buyerName).toBe(0);
  });

  // Issue 18: a 0%-fit order (outside the date window) is no candidate, unless the seller searched for it.
  it('leaves out pairs that cannot be the same sale unless asked to keep them, naming every part of the fit', () => {
    const far = record('far', { order: order('a', 'Ada Lovelace', '2026-05-30T00:00:00Z') });
    expect(rankManualCandidates(selected, [far])).toEqual([]);
    const [kept] = rankManualCandidates(selected, [far], { keepNoFit: true });
    expect(kept).toEqual({ id: 'far', fit: { score: 0, buyerName: 1, date: 0, items: 1 } });
  });

  // Issue 17: a matched receipt may take another Printify order (a replacement); an archived one takes none.
  it('offers lone Printify orders to a matched receipt, nothing to an archived order, ', () => {
    const pair = record('pair', { status: 'matched', receipt: receipt('1', 'Ada Lovelace'), order: order('z', 'Ada') });
    expect(rankManualCandidates(pair, [record('x', { order: order('b', 'Ada Lovelace') })]).map((c) => c.id)).toEqual([
      'x',
    ]);
    expect(
      rankManualCandidates({ ...selected, archived: true }, [record('x', { order: order('b', 'Ada Lovelace') })]),
    ).toEqual([]);
  });
});
