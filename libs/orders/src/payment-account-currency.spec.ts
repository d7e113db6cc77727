import type { UserProfitInputs } from '@pod/db';
import type { CurrencyCode, OrderProfitInput } from '@pod/domain';
import { paymentAccountCurrencyOf, profitSettingsFor } from './user-profits';

/** The payment account's currency is the shop's ledger's, never the listing's (ADR 0026). */
function inputs(ledgerCurrencies: [string, CurrencyCode][]): UserProfitInputs {
  return {
    records: [],
    receipts: new Map(),
    payments: new Map(),
    ledgerEntries: new Map(),
    printifyOrders: new Map(),
    ledgerCurrencies: new Map(ledgerCurrencies),
    printifySkuHistory: [],
    settings: { bankCountry: 'GB', printifyCostReading: 'per_line', vatRegistered: true },
  };
}

describe('paymentAccountCurrencyOf', () => {
  it("reads the receipt's shop's ledger currency", () => {
    const two = inputs([
      ['S1', 'GBP'],
      ['S2', 'EUR'],
    ]);
    expect(paymentAccountCurrencyOf(two, 'S1:123')).toBe('GBP');
    expect(paymentAccountCurrencyOf(two, 'S2:456')).toBe('EUR');
  });

  it("falls back to the user's only ledger currency, else unknown", () => {
    expect(paymentAccountCurrencyOf(inputs([['S1', 'GBP']]), null)).toBe('GBP');
    expect(paymentAccountCurrencyOf(inputs([['S1', 'GBP']]), 'S9:1')).toBe('GBP');
    expect(
      paymentAccountCurrencyOf(
        inputs([
          ['S1', 'GBP'],
          ['S2', 'EUR'],
        ]),
        null,
      ),
    ).toBeNull();
    expect(paymentAccountCurrencyOf(inputs([]), 'S1:1')).toBeNull();
  });
});

describe('profitSettingsFor', () => {
  it("passes the seller's profit settings and the ledger's currency, not the payment's", () => {
    const order: OrderProfitInput = {
      receipt: null,
      payments: [
        { paymentId: 'P', currency: 'USD', amountFeesMinor: 0, postedFeesMinor: null, adjustedFeesMinor: null },
      ],
      ledgerEntries: [],
      printifyOrders: [],
    };
    const convert = () => ({ unavailable: true as const, reason: 'none' });
    expect(profitSettingsFor(inputs([['S1', 'GBP']]), order, 'USD', convert)).toMatchObject({
      paymentAccountCurrency: 'GBP',
      printifyCostReading: 'per_line',
      vatRegistered: true,
      bankCountry: 'GB',
    });
  });
});
