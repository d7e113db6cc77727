import { mapEtsyPayment } from '@pod/integrations';
import { etsyPaymentRow } from './rows';

/**
 * integrations.md §a.6, currency caveats: "A reported bug (etsy/open-api issue #564): some
 * payments show the buyer currency code while the values are in shop currency. Check `currency`
 * against `shop_currency` against the receipt's currency." A USD shop's sale to a Danish buyer
 * comes back labelled DKK with the USD values; stored as DKK, its processing fee would convert to
 * about a seventh of what Etsy charged.
 */
const money = (amount: number, currency_code: string) => ({ amount, divisor: 100, currency_code });

function payment(label: string, over: Record<string, unknown> = {}) {
  return {
    payment_id: 5550101,
    buyer_user_id: 901,
    shop_id: 31,
    receipt_id: 1370762297,
    // USD 50.00 + 3.13 tax; fee 3% × 53.13 + 0.25 = 1.8439 → 1.84.
    amount_gross: money(5313, label),
    amount_fees: money(184, label),
    amount_net: money(5129, label),
    posted_gross: money(5313, label),
    posted_fees: money(184, label),
    posted_net: money(5129, label),
    adjusted_gross: null,
    adjusted_fees: null,
    adjusted_net: null,
    currency: label,
    shop_currency: 'USD',
    buyer_currency: 'DKK',
    status: 'settled',
    create_timestamp: 1773446400,
    created_timestamp: 1773446400,
    payment_adjustments: [],
    ...over,
  };
}

function stored(payload: Record<string, unknown>) {
  const outcome = etsyPaymentRow(mapEtsyPayment(payload), payload);
  if (!outcome.ok) throw new Error(`quarantined: ${outcome.quarantined.field}`);
  return outcome.row;
}

describe('a payment labelled in the buyer currency with shop-currency values (issue #564)', () => {
  it('stores its amounts in the shop currency', () => {
    const row = stored(payment('DKK'));
    expect(row.currency).toBe('USD');
    expect([row.amountGrossMinor, row.amountFeesMinor, row.amountNetMinor, row.postedFeesMinor]).toEqual([
      5313, 184, 5129, 184,
    ]);
  });

  it('keeps a payment labelled in the shop currency as it is', () => {
    expect(stored(payment('USD')).currency).toBe('USD');
  });

  it('keeps a label that is neither the buyer nor the shop currency (no sign of the bug)', () => {
    expect(stored(payment('EUR')).currency).toBe('EUR');
  });

  it('keeps the label when the payment does not say its shop currency', () => {
    expect(stored(payment('DKK', { shop_currency: null })).currency).toBe('DKK');
  });
});
