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
    expect(ranked.map((candidate) => candidate.id)).toEqual(['best', 'other-name', 'far']);
    expect(ranked[0].score).toBe(1);
    expect(ranked[2].score).toBe(0);
  });

  // Issue 17: a matched receipt may take another Printify order (a replacement); an archived one takes none.
  it('offers lone Printify orders to a matched receipt, nothing to an archived order, and honours the limit', () => {
    const pair = record('pair', { status: 'matched', receipt: receipt('1', 'Ada Lovelace'), order: order('z', 'Ada') });
    expect(rankManualCandidates(pair, [record('x', { order: order('b', 'Ada Lovelace') })]).map((c) => c.id)).toEqual([
      'x',
    ]);
    expect(
      rankManualCandidates({ ...selected, archived: true }, [record('x', { order: order('b', 'Ada Lovelace') })]),
    ).toEqual([]);
    const many = Array.from({ length: 30 }, (_, i) => record(`o${i}`, { order: order(`o${i}`, 'Ada Lovelace') }));
    expect(rankManualCandidates(selected, many, 5)).toHaveLength(5);
  });
});
