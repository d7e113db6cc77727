import { computeOrderProfit } from '../profit/order-profit';
import { estimateExplanation } from '../profit/estimate-reasons';
import type { EtsyLedgerEntryInput, OrderProfitInput, ProfitSettings } from '../profit/inputs';
import { ORDER_TIME } from '../profit/testing/builders';
import { fixedRateConverter } from '../profit/testing/fixed-rate-converter';

// Issue 18: an "estimated" mark says why: Etsy's ledger has not arrived, it lacks this fee, or
// Etsy never lists the fee per order (the currency conversion fee, ADR 0026).
const receipt = {
  receiptId: 'R',
  status: 'paid',
  currency: 'USD',
  orderedAt: ORDER_TIME,
  subtotalMinor: 10_000,
  totalPriceMinor: 10_000,
  totalShippingMinor: 0,
  totalTaxMinor: 0,
  totalVatMinor: 0,
  giftWrapMinor: 0,
  refundedMinor: 0,
  lines: [{ transactionId: 'T', listingId: 'L', quantity: 1 }],
} as const;
const settings: ProfitSettings = {
  displayCurrency: 'USD',
  printifyCostReading: 'per_unit',
  bankCountry: 'GB',
  paymentAccountCurrency: 'GBP',
  offsiteAdsTier: 'under_10k',
  convert: fixedRateConverter({ 'USD>GBP': '0.8', 'GBP>USD': '1.25' }),
};
const reasons = (input: Partial<OrderProfitInput>) =>
  Object.fromEntries(
    computeOrderProfit({ receipt, payments: [], ledgerEntries: [], printifyOrders: [], ...input }, settings)
      .costs.filter((cost) => cost.estimated)
      .map((cost) => [cost.kind, cost.estimateReason]),
  );

describe('why a fee is estimated', () => {
  it('without any ledger entry: every fee awaits the ledger, except the conversion fee, never itemised', () => {
    expect(reasons({})).toEqual({
      transaction: 'ledger_not_arrived',
      processing: 'ledger_not_arrived',
      listing: 'ledger_not_arrived',
      regulatory: 'ledger_not_arrived',
      currency_conversion: 'not_itemised',
      vat_on_fees: 'ledger_not_arrived',
    });
  });

  it('with the ledger in but a fee missing from it: that fee is not in the ledger yet', () => {
    const ledgerEntries: EtsyLedgerEntryInput[] = [
      { entryId: '1', ledgerType: 'transaction', currency: 'GBP', amountMinor: -520 },
      { entryId: '2', ledgerType: 'PAYMENT_PROCESSING_FEE', currency: 'GBP', amountMinor: -300 },
      { entryId: '3', ledgerType: 'renew_sold', currency: 'GBP', amountMinor: -16 },
      { entryId: '4', ledgerType: 'regulatory_operating_fee', currency: 'GBP', amountMinor: -26 },
    ];
    expect(reasons({ ledgerEntries })).toEqual({
      currency_conversion: 'not_itemised',
      // VAT on nothing but the conversion fee is never itemised either.
      vat_on_fees: 'not_itemised',
    });
    expect(reasons({ ledgerEntries: ledgerEntries.slice(1) })).toMatchObject({ transaction: 'not_in_ledger' });
  });

  it('explains the reason, then the rule', () => {
    expect(estimateExplanation('not_itemised', '2.5%: listed in USD, paid out in GBP')).toBe(
      'Etsy never lists this fee per order, so it is always estimated. Estimated as 2.5%: listed in USD, paid out in GBP.',
    );
    expect(estimateExplanation(null, null)).toBe('Estimated from the fee schedule.');
  });
});
