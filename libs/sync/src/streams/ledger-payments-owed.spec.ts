import type { EtsyLedgerEntry } from '@pod/integrations';
import { money } from '@pod/domain';
import { paymentsBehindEntries } from './ledger-payments-owed';

/**
 * integrations.md §a.7: a sale's entry references its payment (`shop_payment`); a refund's
 * references the payment adjustment, and `payment_adjustments[]` is "present on refund-related
 * entries", but a real REFUND_GROSS came without it (etsy/open-api #302). §a.6: the payment behind
 * an entry is found by the entry's id (getPaymentAccountLedgerEntryPayments).
 */
function entry(
  entryId: string,
  ledgerType: string,
  referenceType: string,
  referenceId: string,
  adjustmentPaymentIds: string[] = [],
): EtsyLedgerEntry {
  return {
    entryId,
    ledgerId: '8080291933',
    sequenceNumber: 1,
    amount: money(0, 'EUR'),
    balance: null,
    ledgerType,
    description: ledgerType,
    referenceType,
    referenceId,
    parentEntryId: null,
    createdAt: new Date('2022-01-27T10:23:35Z'),
    paymentAdjustments: adjustmentPaymentIds.map((paymentId, i) => ({
      paymentAdjustmentId: `${referenceId}${i}`,
      paymentId,
      status: 'success',
      isSuccess: true,
      reasonCode: null,
      totalAdjustmentAmount: null,
      shopTotalAdjustmentAmount: null,
      buyerTotalAdjustmentAmount: null,
      totalFeeAdjustmentAmount: null,
      createdAt: null,
    })),
  };
}

describe('paymentsBehindEntries', () => {
  it('fetches by entry a new sale’s payment and the payment behind a refund entry without adjustments', () => {
    const owed = paymentsBehindEntries(
      [
        entry('11377948894', 'PAYMENT_GROSS', 'shop_payment', '101096642631'),
        entry('11377948895', 'PAYMENT_GROSS', 'shop_payment', '101096642632'),
        entry('11594841764', 'REFUND_GROSS', 'payment_adjustment', '100307830422'),
        entry('11594841765', 'REFUND_GROSS', 'payment_adjustment', '100307830423', ['101096642633']),
        entry('11594841766', 'transaction', 'transaction', '4100000001'),
      ],
      new Set(['101096642632']),
    );
    expect(owed).toEqual({ byEntry: ['11377948894', '11594841764'], byPaymentId: ['101096642633'] });
  });
});
