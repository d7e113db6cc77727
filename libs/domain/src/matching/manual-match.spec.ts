import { planManualMatch, planManualRemoval, type ManualRecord } from './manual-match';

const record = (id: string, over: Partial<ManualRecord>): ManualRecord => ({
  id,
  status: 'unmatched',
  archived: false,
  receipt: null,
  order: null,
  attached: [],
  ...over,
});
const receipt = { shopId: 'e', id: '3001' };
const side = (id: string) => ({ shopId: 'p', id });

describe('planManualMatch (the manual-match rule)', () => {
  const loneReceipt = record('r', { receipt });
  const loneOrder = record('o', { order: side('b') });
  const pair = record('pr', { status: 'matched', receipt, order: side('a') });

  it('pairs a lone receipt and a lone Printify order, either way round', () => {
    expect(planManualMatch(loneReceipt, loneOrder)).toEqual({ kind: 'pair', receiptRecordId: 'r', orderRecordId: 'o' });
    expect(planManualMatch(loneOrder, loneReceipt)).toEqual({ kind: 'pair', receiptRecordId: 'r', orderRecordId: 'o' });
  });

  it('adds a lone Printify order to a receipt that already has one', () => {
    expect(planManualMatch(pair, loneOrder)).toEqual({ kind: 'attach', receiptRecordId: 'pr', orderRecordId: 'o' });
    expect(planManualMatch(pair, { ...loneOrder, status: 'not_needed' })).toMatchObject({ kind: 'attach' });
  });

  it('refuses what cannot be: one record, archived, two receipts, no Printify side, an order already on a receipt', () => {
    expect(planManualMatch(loneReceipt, loneReceipt)).toBe('same_record');
    expect(planManualMatch(loneReceipt, { ...loneOrder, archived: true })).toBe('archived');
    expect(planManualMatch(loneReceipt, pair)).toBe('two_receipts');
    expect(planManualMatch(loneOrder, record('o2', { order: side('c') }))).toBe('no_etsy_side');
    expect(planManualMatch(loneReceipt, record('x', { receipt: null, order: null }))).toBe('no_printify_side');
    expect(planManualMatch(loneReceipt, { ...loneOrder, status: 'matched' })).toBe('already_matched');
  });
});

describe('planManualRemoval', () => {
  const withTwo = record('pr', { status: 'matched', receipt, order: side('a'), attached: [side('b'), side('c')] });

  it('detaches an added order; removing the primary promotes the first added one', () => {
    expect(planManualRemoval(withTwo, 'c')).toEqual({ kind: 'detach', order: side('c') });
    expect(planManualRemoval(withTwo, 'a')).toEqual({ kind: 'promote', order: side('a'), newPrimary: side('b') });
  });

  it('removing the only Printify order is the plain unmatch; other ids and archived records are refused', () => {
    expect(planManualRemoval({ ...withTwo, attached: [] }, 'a')).toEqual({ kind: 'unmatch' });
    expect(planManualRemoval(withTwo, 'zz')).toBe('not_on_record');
    expect(planManualRemoval(withTwo, 'b', 'other-shop')).toBe('not_on_record');
    expect(planManualRemoval({ ...withTwo, archived: true }, 'b')).toBe('archived');
    expect(planManualRemoval(record('o', { order: side('a') }), 'a')).toBe('no_etsy_side');
  });
});
