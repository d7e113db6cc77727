import fc from 'fast-check';
import { money } from '../money';
import { estimateFees } from './estimate';
import { processingFeeRule } from './fee-schedule';
import { ledgerMeaning } from './ledger-types';
import { divideHalfEven } from '../exchange/decimal';
import { applyBasisPoints, basisPoints } from './rounding';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
beforeAll(() => console.log(`fee properties: fast-check seed ${seed} (FC_SEED=${seed} replays it)`));

describe('ledger types (integrations.md §a.7)', () => {
  it('reads types in any case, and a *_refund as the fee it credits back', () => {
    expect(ledgerMeaning('PAYMENT_PROCESSING_FEE')).toEqual({ role: 'fee', fee: 'processing' });
    expect(ledgerMeaning('Transaction_Quantity')).toEqual({ role: 'fee', fee: 'transaction' });
    expect(ledgerMeaning('renew_sold_auto_refund')).toEqual({ role: 'fee', fee: 'listing' });
    expect(ledgerMeaning('offsite_ads_fee_refund')).toEqual({ role: 'fee', fee: 'offsite_ads' });
    expect(ledgerMeaning('VAT_REFUND_EP')).toEqual({ role: 'fee', fee: 'vat_on_fees' });
    expect(ledgerMeaning('vat_seller_services_refund')).toEqual({ role: 'fee', fee: 'vat_on_fees' });
  });

  it('keeps sales, refunds to the buyer, sales tax and payouts out of costs', () => {
    expect(ledgerMeaning('PAYMENT_GROSS')).toEqual({ role: 'not_a_fee', why: 'sale' });
    expect(ledgerMeaning('REFUND_GROSS')).toEqual({ role: 'not_a_fee', why: 'refund_to_buyer' });
    expect(ledgerMeaning('REFUND')).toEqual({ role: 'not_a_fee', why: 'refund_to_buyer' });
    expect(ledgerMeaning('sales_tax')).toEqual({ role: 'not_a_fee', why: 'sales_tax' });
    expect(ledgerMeaning('DISBURSE2')).toEqual({ role: 'not_a_fee', why: 'payout' });
  });

  it('puts unknown types in "other", never dropping them (and finds nothing on Object.prototype)', () => {
    for (const type of ['shipping_labels', 'prolist', 'brand_new_fee', 'constructor', 'toString', '__proto__']) {
      expect(ledgerMeaning(type)).toEqual({ role: 'fee', fee: 'other' });
    }
  });
});

describe('processing fee by bank country (§a.8)', () => {
  it('has the confirmed US, UK and Eurozone rules and flags the unconfirmed ones', () => {
    expect(processingFeeRule('us')).toEqual({ rate: 300, fixed: money(25, 'USD'), unconfirmed: false });
    expect(processingFeeRule('GB')).toEqual({ rate: 400, fixed: money(20, 'GBP'), unconfirmed: false });
    expect(processingFeeRule('NL')).toEqual({ rate: 400, fixed: money(30, 'EUR'), unconfirmed: false });
    expect(processingFeeRule('IN')).toEqual({ rate: 500, fixed: money(2500, 'INR'), unconfirmed: true });
    expect(processingFeeRule('BR')).toBeNull();
    expect(processingFeeRule(null)).toBeNull();
  });
});

describe('estimates', () => {
  const bases = {
    revenue: money(10_000, 'USD'),
    buyerPaid: money(10_800, 'USD'),
    wasPaid: true,
    units: 2,
    bankCountry: 'CA',
    accountCurrency: 'CAD' as const,
    offsiteAds: null,
  };

  // 6.5% × 100.00 = 6.50; CA 3% × 108.00 = 3.24 + CAD 0.25; 2 × USD 0.20 = 0.40; USD listed, CAD account: 2.5% × 100.00 = 2.50.
  it('applies the schedule, each fee in the currency it is quoted in', () => {
    const all = new Set(['transaction', 'processing', 'listing', 'offsite_ads', 'currency_conversion'] as const);
    const { estimates, notEstimated } = estimateFees(all, bases);
    expect(estimates.map((fee) => [fee.kind, fee.amount])).toEqual([
      ['transaction', money(650, 'USD')],
      ['processing', money(324, 'USD')],
      ['processing', money(25, 'CAD')],
      ['listing', money(40, 'USD')],
      ['currency_conversion', money(250, 'USD')],
    ]);
    expect(estimates[1].note).toMatch(/UNCONFIRMED/);
    expect(notEstimated).toEqual([]);
  });

  it('lists what it cannot estimate, and estimates only what is asked', () => {
    const result = estimateFees(new Set(['processing', 'currency_conversion'] as const), {
      ...bases,
      bankCountry: 'BR',
      accountCurrency: null,
    });
    expect(result).toEqual({ estimates: [], notEstimated: ['processing', 'currency_conversion'] });
  });
});

describe('rounding', () => {
  it('divides half to even', () => {
    expect([5n, 15n, 25n, -5n, -15n, 7n, -7n].map((n) => divideHalfEven(n, 10n))).toEqual([
      0n,
      2n,
      2n,
      0n,
      -2n,
      1n,
      -1n,
    ]);
    expect(divideHalfEven(7n, -2n)).toBe(-4n);
    expect(() => divideHalfEven(1n, 0n)).toThrow();
  });

  it('applies basis points within half a minor unit of the exact value', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 10_000 }), (amount, rate) => {
        const result = applyBasisPoints(money(amount, 'USD'), basisPoints(rate)).amountMinor;
        expect(Number.isSafeInteger(result)).toBe(true);
        expect(Math.abs(result * 10_000 - amount * rate)).toBeLessThanOrEqual(5_000);
      }),
      { seed },
    );
    expect(() => basisPoints(6.5)).toThrow();
  });
});
