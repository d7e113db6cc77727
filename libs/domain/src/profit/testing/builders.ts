import type { CurrencyCode } from '../../currency';
import { toDecimalString } from '../../money';
import type {
  EtsyLedgerEntryInput,
  EtsyPaymentInput,
  EtsyReceiptInput,
  PrintifyOrderInput,
  PrintifyOrderLineInput,
  ProfitSettings,
} from '../inputs';
import type { OrderProfit } from '../order-profit';
import { fixedRateConverter } from './fixed-rate-converter';

/** Input builders for the profit tests: a plain paid order on 2026-03-14, overridden per scenario. */
export const ORDER_TIME = new Date('2026-03-14T15:00:00Z');

/** The golden scenarios' rates (fixed, not the ECB's). */
export const goldenRates = fixedRateConverter({
  'EUR>GBP': '0.85',
  'USD>GBP': '0.75',
  'USD>EUR': '0.9',
  'EUR>USD': '1.1',
});

/** A US seller paid out in USD, shown in USD, Printify cost read per unit. */
export const usdShop: ProfitSettings = {
  displayCurrency: 'USD',
  printifyCostReading: 'per_unit',
  bankCountry: 'US',
  paymentAccountCurrency: 'USD',
  offsiteAdsTier: 'under_10k',
  convert: goldenRates,
};

export function receipt(overrides: Partial<EtsyReceiptInput> = {}): EtsyReceiptInput {
  return {
    receiptId: '1370762297',
    status: 'paid',
    currency: 'USD',
    orderedAt: ORDER_TIME,
    subtotalMinor: 0,
    totalPriceMinor: 0,
    totalShippingMinor: 0,
    totalTaxMinor: 0,
    totalVatMinor: null,
    giftWrapMinor: null,
    refundedMinor: 0,
    lines: [{ transactionId: 'T1', listingId: 'L1', quantity: 1 }],
    ...overrides,
  };
}

export function payment(
  currency: CurrencyCode,
  amountFeesMinor: number,
  adjustedFeesMinor: number | null = null,
): EtsyPaymentInput {
  return { paymentId: 'P1', currency, amountFeesMinor, postedFeesMinor: amountFeesMinor, adjustedFeesMinor };
}

let entrySeq = 0;
export function ledger(ledgerType: string, amountMinor: number, currency: CurrencyCode = 'USD'): EtsyLedgerEntryInput {
  entrySeq += 1;
  return { entryId: `E${entrySeq}`, ledgerType, currency, amountMinor };
}

export function printifyOrder(
  lines: PrintifyOrderLineInput[],
  overrides: Partial<PrintifyOrderInput> = {},
): PrintifyOrderInput {
  return {
    orderId: '5a96f649b2439217d070f507',
    status: 'fulfilled',
    currency: 'USD',
    orderedAt: ORDER_TIME,
    totalTaxMinor: 0,
    lines,
    ...overrides,
  };
}

export function line(
  quantity: number,
  costMinor: number,
  shippingMinor: number,
  status: string | null = 'fulfilled',
): PrintifyOrderLineInput {
  return { quantity, costMinor, shippingMinor, status };
}

/** A computed result as plain decimal strings: the cost lines in order, as "kind/source amount". */
export function figures(result: OrderProfit) {
  if (result.state !== 'computed') throw new Error(`expected a computed result, got ${result.state}`);
  const { display } = result;
  return {
    revenue: toDecimalString(display.revenue),
    costs: display.costs.map((cost) => `${cost.kind}/${cost.source} ${toDecimalString(cost.display)}`),
    totalCosts: toDecimalString(display.totalCosts),
    netProfit: toDecimalString(display.netProfit),
    marginBasisPoints: display.margin?.basisPoints ?? null,
  };
}
