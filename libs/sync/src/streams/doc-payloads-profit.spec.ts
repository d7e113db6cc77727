import {
  computeOrderProfit,
  RateTable,
  rateTableConverter,
  toDecimalString,
  type OrderProfitInput,
  type ProfitSettings,
} from '@pod/domain';
import { mapEtsyLedgerEntries, mapEtsyPayment, mapEtsyReceipt, mapPrintifyOrder } from '@pod/integrations';
import { etsyLedgerEntryRow, etsyPaymentRow, etsyReceiptRow, printifyOrderRow } from './rows';

/**
 * One sale as Etsy and Printify send it, built from the facts integrations.md gives (it has no
 * whole example payloads): §a.5's captured receipt "2 × 113.00, 20% coupon: total_price 22600 −
 * discount_amt 4520 gives subtotal 18080, and grandtotal is 18080", with a Title Case status,
 * both timestamp names and a Money whose divisor is not 100; §a.6's Payment; §a.7's ledger with
 * `reference_id` as a number (issue #295) and as a string; §b.4's Printify order naming the
 * receipt by `metadata.shop_order_id` `1370762297` (a number) and `shop_order_label` (its text),
 * times as `YYYY-MM-DD HH:MM:SS+00:00`, amounts in cents. It goes through the mappers and the
 * stored rows into the profit engine, whose figures are worked by hand below.
 */
const usd = (amount: number, divisor = 100) => ({ amount, divisor, currency_code: 'USD' });
const SAT_2026_03_14 = 1773446400; // 2026-03-14T00:00:00Z

const receiptPayload = {
  receipt_id: 1370762297,
  receipt_type: 0,
  seller_user_id: 11,
  buyer_user_id: 901,
  name: 'Ada Lovelace',
  country_iso: 'US',
  status: 'Completed',
  payment_method: 'cc',
  is_paid: true,
  is_shipped: true,
  create_timestamp: SAT_2026_03_14,
  created_timestamp: SAT_2026_03_14,
  update_timestamp: SAT_2026_03_14 + 86_400,
  updated_timestamp: SAT_2026_03_14 + 86_400,
  is_gift: false,
  grandtotal: usd(18080),
  subtotal: usd(18080),
  // The divisor is "usually 100 but not always" (§a.5).
  total_price: usd(226000, 1000),
  total_shipping_cost: usd(0),
  total_tax_cost: usd(0),
  total_vat_cost: usd(0),
  discount_amt: usd(4520),
  gift_wrap_price: usd(0),
  shipments: [],
  transactions: [
    {
      transaction_id: 4100000001,
      title: 'Cat Mug 11oz &quot;Ada&quot;',
      receipt_id: 1370762297,
      create_timestamp: SAT_2026_03_14,
      created_timestamp: SAT_2026_03_14,
      quantity: 2,
      is_digital: false,
      listing_id: 1500000001,
      transaction_type: 'listing',
      product_id: 9000001,
      sku: '',
      price: usd(11300),
      shipping_cost: usd(0),
      variations: [],
      buyer_coupon: 45.2,
      shop_coupon: 45.2,
    },
  ],
  refunds: [],
};

// Etsy charged 3% × 180.80 + 0.25 = 5.674 → 5.67 (§a.8, US).
const paymentPayload = {
  payment_id: 5550101,
  buyer_user_id: 901,
  shop_id: 31,
  receipt_id: 1370762297,
  amount_gross: usd(18080),
  amount_fees: usd(567),
  amount_net: usd(17513),
  posted_gross: usd(18080),
  posted_fees: usd(567),
  posted_net: usd(17513),
  adjusted_gross: null,
  adjusted_fees: null,
  adjusted_net: null,
  currency: 'USD',
  shop_currency: 'USD',
  buyer_currency: 'USD',
  status: 'settled',
  create_timestamp: SAT_2026_03_14,
  created_timestamp: SAT_2026_03_14,
  payment_adjustments: [],
};

const entry = (
  entryId: number,
  ledgerType: string,
  referenceType: string,
  referenceId: number | string,
  amount: number,
) => ({
  entry_id: entryId,
  ledger_id: 7001,
  sequence_number: entryId - 80000,
  amount,
  currency: 'USD',
  description: ledgerType,
  balance: 0,
  create_date: SAT_2026_03_14 + 60,
  created_timestamp: SAT_2026_03_14 + 60,
  ledger_type: ledgerType,
  reference_type: referenceType,
  reference_id: referenceId,
  parent_entry_id: 0,
  payment_adjustments: [],
});

// The entries linkLedgerEntries ties to this receipt (through its payment and its transaction).
const ledgerPayload = {
  count: 5,
  results: [
    entry(80001, 'PAYMENT_GROSS', 'shop_payment', 5550101, 18080),
    entry(80002, 'PAYMENT_PROCESSING_FEE', 'shop_payment', '5550101', -567),
    // 6.5% × 180.80 = 11.752: Etsy split it 5.88 on the first unit, 5.87 on the second.
    entry(80003, 'transaction', 'transaction', 4100000001, -588),
    entry(80004, 'transaction_quantity', 'transaction', 4100000001, -587),
    entry(80005, 'sales_tax', 'receipt', 1370762297, 0),
  ],
};

const printifyPayload = {
  id: '5a96f649b2439217d070f507',
  app_order_id: '215014.44',
  address_to: { first_name: 'Ada', last_name: 'Lovelace', country: 'US', region: 'NY', city: 'New York', zip: '10001' },
  line_items: [
    {
      product_id: '5d39b159e7c48c000728c89f',
      variant_id: 17887,
      quantity: 2,
      print_provider_id: 5,
      cost: 1050,
      shipping_cost: 400,
      status: 'fulfilled',
      metadata: {
        title: 'Cat Mug 11oz',
        price: 11300,
        variant_label: '11oz',
        sku: '168699843',
        country: 'United States',
      },
      sent_to_production_at: '2026-03-14 12:00:00+00:00',
      fulfilled_at: '2026-03-16 10:00:00+00:00',
    },
  ],
  metadata: {
    order_type: 'external',
    shop_order_id: 1370762297,
    shop_order_label: '1370762297',
    shop_fulfilled_at: '2026-03-16 10:05:00+00:00',
    is_reprint: false,
    reprinted_order_ids: [],
    child_reprinted_order_ids: [],
  },
  total_price: 2500,
  total_shipping: 400,
  total_tax: 0,
  status: 'fulfilled',
  shipping_method: 1,
  is_printify_express: false,
  is_economy_shipping: false,
  shipments: [{ carrier: 'usps', number: '9400110200828', url: 'https://t.example/9400110200828', delivered_at: null }],
  created_at: '2026-03-14 09:12:40+00:00',
  sent_to_production_at: '2026-03-14 12:00:00+00:00',
  fulfilled_at: '2026-03-16 10:00:00+00:00',
};

function ok<Row>(outcome: { ok: true; row: Row } | { ok: false }): Row {
  if (!outcome.ok) throw new Error('quarantined');
  return outcome.row;
}

/** The stored rows read as ProfitInputsRepository reads their columns. */
function profitInput(): OrderProfitInput {
  const receipt = ok(etsyReceiptRow(mapEtsyReceipt(receiptPayload), receiptPayload));
  const payment = ok(etsyPaymentRow(mapEtsyPayment(paymentPayload), paymentPayload));
  const ledger = mapEtsyLedgerEntries(ledgerPayload).records.map((record, i) =>
    etsyLedgerEntryRow(record, ledgerPayload.results[i]),
  );
  const order = ok(printifyOrderRow(mapPrintifyOrder(printifyPayload, 'USD'), printifyPayload));
  return {
    receipt: {
      receiptId: receipt.receiptId,
      status: receipt.status,
      currency: receipt.currency,
      orderedAt: receipt.orderedAt,
      subtotalMinor: receipt.subtotalMinor,
      totalPriceMinor: receipt.totalPriceMinor,
      totalShippingMinor: receipt.totalShippingMinor,
      totalTaxMinor: receipt.totalTaxMinor,
      totalVatMinor: receipt.totalVatMinor,
      giftWrapMinor: receipt.giftWrapMinor,
      refundedMinor: receipt.refundedMinor,
      isPaid: receipt.isPaid,
      refunds: [],
      buyerCountry: receipt.countryIso,
      lines: receipt.lines.map((line) => ({
        transactionId: line.transactionId,
        listingId: line.listingId,
        quantity: line.quantity,
      })),
    },
    payments: [
      {
        paymentId: payment.paymentId,
        currency: payment.currency,
        amountFeesMinor: payment.amountFeesMinor,
        postedFeesMinor: payment.postedFeesMinor,
        adjustedFeesMinor: payment.adjustedFeesMinor,
      },
    ],
    ledgerEntries: ledger.map((row) => ({
      entryId: row.entryId,
      ledgerType: row.ledgerType,
      currency: row.currency,
      amountMinor: row.amountMinor,
    })),
    printifyOrders: [
      {
        orderId: order.orderId,
        status: order.status,
        currency: order.currency,
        orderedAt: order.orderedAt,
        totalTaxMinor: order.totalTaxMinor,
        lines: order.lines.map((line) => ({
          quantity: line.quantity,
          costMinor: line.costMinor,
          shippingMinor: line.shippingMinor,
          status: line.status,
        })),
      },
    ],
  };
}

// §c.3's worked example: Friday 2026-03-13, USD 1.1476 and GBP 0.86503 per EUR.
const ecb = RateTable.fromRows([
  { date: '2026-03-13', currency: 'USD', perEur: '1.1476' },
  { date: '2026-03-13', currency: 'GBP', perEur: '0.86503' },
]);
const usSeller: ProfitSettings = {
  displayCurrency: 'USD',
  printifyCostReading: 'per_unit',
  bankCountry: 'US',
  paymentAccountCurrency: 'USD',
  offsiteAdsTier: 'under_10k',
  convert: rateTableConverter(ecb),
};

describe('a sale from the docs’ payload facts, mapped, stored and figured', () => {
  it('stores what the payloads say', () => {
    const input = profitInput();
    expect(input.receipt).toMatchObject({
      receiptId: '1370762297',
      status: 'completed',
      totalPriceMinor: 22600,
      subtotalMinor: 18080,
      refundedMinor: 0,
      isPaid: true,
      lines: [{ transactionId: '4100000001', listingId: '1500000001', quantity: 2 }],
    });
    expect(input.ledgerEntries.map((row) => row.amountMinor)).toEqual([18080, -567, -588, -587, 0]);
    const order = mapPrintifyOrder(printifyPayload, 'USD');
    expect([order.shopOrderId, order.shopOrderLabel, order.createdAt.toISOString()]).toEqual([
      '1370762297',
      '1370762297',
      '2026-03-14T09:12:40.000Z',
    ]);
  });

  // Revenue = subtotal 180.80 + shipping 0 + gift wrap 0 (no tax or VAT) = 180.80.
  // Printify (per unit): production 10.50 × 2 = 21.00, shipping 4.00, tax 0.00.
  // Processing 5.67 from the payment (the ledger's PAYMENT_PROCESSING_FEE is the same fee: left out).
  // Transaction 5.88 + 5.87 = 11.75 from the ledger. PAYMENT_GROSS and sales_tax are not fees.
  // Listing: no renew_sold linked → estimate USD 0.20 × 2 units = 0.40.
  // US seller: no regulatory fee, no VAT on fees; ledger in USD = listing currency: no conversion fee.
  // Costs = 21.00 + 4.00 + 0.00 + 5.67 + 11.75 + 0.40 = 42.82; profit = 180.80 − 42.82 = 137.98.
  // Margin = 13798 / 18080 = 0.763163… → 7632 basis points.
  it('figures revenue, every cost and the profit to the cent', () => {
    const result = computeOrderProfit(profitInput(), usSeller);
    if (result.state !== 'computed') throw new Error(`expected a computed result, got ${result.state}`);
    const { display } = result;
    expect({
      revenue: toDecimalString(display.revenue),
      costs: display.costs.map((cost) => `${cost.kind}/${cost.source} ${toDecimalString(cost.display)}`),
      totalCosts: toDecimalString(display.totalCosts),
      netProfit: toDecimalString(display.netProfit),
      margin: display.margin?.basisPoints ?? null,
    }).toEqual({
      revenue: '180.80',
      costs: [
        'printify_production/printify 21.00',
        'printify_shipping/printify 4.00',
        'printify_tax/printify 0.00',
        'processing/payment 5.67',
        'transaction/ledger 11.75',
        'listing/estimate 0.40',
      ],
      totalCosts: '42.82',
      netProfit: '137.98',
      margin: 7632,
    });
  });

  // The same order shown in GBP at §c.3's rate: 1 USD = 0.86503 / 1.1476 = 0.753773… GBP.
  // Revenue 180.80 × 0.753773 = 136.282… → 136.28; each cost converts on its own (half to even):
  // 21.00 → 15.83, 4.00 → 3.02, 0.00, 5.67 → 4.27, 11.75 → 8.86, 0.40 → 0.30; total 32.28;
  // profit 136.28 − 32.28 = 104.00.
  it('converts at the ECB rate of the Friday before a Saturday order', () => {
    const result = computeOrderProfit(profitInput(), { ...usSeller, displayCurrency: 'GBP' });
    if (result.state !== 'computed') throw new Error(`expected a computed result, got ${result.state}`);
    expect(toDecimalString(result.display.revenue)).toBe('136.28');
    expect(result.display.costs.map((cost) => toDecimalString(cost.display))).toEqual([
      '15.83',
      '3.02',
      '0.00',
      '4.27',
      '8.86',
      '0.30',
    ]);
    expect(toDecimalString(result.display.totalCosts)).toBe('32.28');
    expect(toDecimalString(result.display.netProfit)).toBe('104.00');
  });
});
