import type { OrderRowView } from '@pod/contracts';
import { lowFitReasons, lowFitText } from './fitText';

const on = (orderDate: string | null) => ({ orderDate }) as OrderRowView;

describe('lowFitText (issue 18: the low-fit confirmation says why)', () => {
  it('names every low part of the fit', () => {
    expect(lowFitText({ score: 0.09, buyerName: 0, date: 1, items: 0 }, on('2026-05-01'), on('2026-05-02'))).toBe(
      'Only 9% fit: the buyer names share no word and the products share nothing. These may not be the same sale.',
    );
    expect(
      lowFitReasons({ score: 0, buyerName: null, date: 0, items: 0.3 }, on('2026-05-01'), on('2026-06-10')),
    ).toEqual([
      'one of them has no buyer name',
      'the orders are 40 days apart, too far for one sale',
      'the products barely agree',
    ]);
    expect(
      lowFitReasons({ score: 0.4, buyerName: 0.4, date: 0.25, items: 1 }, on('2026-05-01'), on('2026-05-12')),
    ).toEqual(['the buyer names barely agree', 'the orders are 11 days apart']);
  });

  it('says the parts agree only in part when none is low on its own', () => {
    expect(lowFitText({ score: 0.5, buyerName: 0.5, date: 0.5, items: 0.5 }, on(null), on(null))).toBe(
      'Only 50% fit: the buyer name, date and products agree only in part. These may not be the same sale.',
    );
  });
});
