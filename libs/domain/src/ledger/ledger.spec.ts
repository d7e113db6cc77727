import { ledgerClass, ledgerMeaning } from '../fees/ledger-types';
import { money } from '../money';
import type { ProfitConverter } from '../profit/converter';
import { reconcilePayout, reconcileUnpaid, payoutLineOf } from './payouts';
import { shopCostDays, type ShopCostEntryInput } from './shop-costs';
import { newUnclassifiedTypes } from './unclassified-log';

describe('every ledger type of integrations.md §a.7 has a class', () => {
  const expected: Record<string, ReturnType<typeof ledgerClass>> = {
    PAYMENT_GROSS: { class: 'order', role: 'sale' },
    REFUND_GROSS: { class: 'order', role: 'refund_to_buyer' },
    REFUND: { class: 'order', role: 'refund_to_buyer' },
    sales_tax: { class: 'order', role: 'sales_tax' },
    PAYMENT_PROCESSING_FEE: { class: 'order', role: 'fee', fee: 'processing' },
    REFUND_PROCESSING_FEE: { class: 'order', role: 'fee', fee: 'processing' },
    transaction: { class: 'order', role: 'fee', fee: 'transaction' },
    transaction_quantity: { class: 'order', role: 'fee', fee: 'transaction' },
    shipping_transaction: { class: 'order', role: 'fee', fee: 'transaction' },
    gift_wrap_fees: { class: 'order', role: 'fee', fee: 'transaction' },
    transaction_refund: { class: 'order', role: 'fee', fee: 'transaction' },
    transaction_quantity_refund: { class: 'order', role: 'fee', fee: 'transaction' },
    shipping_transaction_refund: { class: 'order', role: 'fee', fee: 'transaction' },
    renew_sold: { class: 'order', role: 'fee', fee: 'listing' },
    renew_sold_auto: { class: 'order', role: 'fee', fee: 'listing' },
    renew_sold_refund: { class: 'order', role: 'fee', fee: 'listing' },
    offsite_ads_fee: { class: 'order', role: 'fee', fee: 'offsite_ads' },
    offsite_ads_fee_refund: { class: 'order', role: 'fee', fee: 'offsite_ads' },
    regulatory_operating_fee: { class: 'order', role: 'fee', fee: 'regulatory' },
    regulatory_operating_fee_refund: { class: 'order', role: 'fee', fee: 'regulatory' },
    listing: { class: 'shop_cost', kind: 'listing' },
    listing_private: { class: 'shop_cost', kind: 'listing' },
    renew_expired: { class: 'shop_cost', kind: 'listing' },
    auto_renew_expired: { class: 'shop_cost', kind: 'listing' },
    renew: { class: 'shop_cost', kind: 'listing' },
    listing_refund: { class: 'shop_cost', kind: 'listing' },
    prolist: { class: 'shop_cost', kind: 'etsy_ads' },
    prolist_refund: { class: 'shop_cost', kind: 'etsy_ads' },
    subscription: { class: 'shop_cost', kind: 'subscription' },
    shipping_labels: { class: 'shop_cost', kind: 'shipping_labels' },
    shipping_label_adjustment: { class: 'shop_cost', kind: 'shipping_labels' },
    shipping_label_refund: { class: 'shop_cost', kind: 'shipping_labels' },
    seller_credit: { class: 'shop_cost', kind: 'credits' },
    SELLER_DRIVEN_TRAFFIC_CREDIT: { class: 'shop_cost', kind: 'credits' },
    seller_onboarding_fee: { class: 'shop_cost', kind: 'onboarding' },
    DEPOSIT_FEE: { class: 'shop_cost', kind: 'deposit_fee' },
    seller_onboarding_fee_payment: { class: 'payout', why: 'bill_payment' },
    DISBURSE2: { class: 'payout', why: 'deposit' },
    billing_payment: { class: 'payout', why: 'bill_payment' },
    vat_seller_services: { class: 'vat_on_fee' },
    vat_on_processing_fees: { class: 'vat_on_fee' },
    vat_tax_ep: { class: 'vat_on_fee' },
    VAT_REFUND_EP: { class: 'vat_on_fee' },
    vat_seller_services_refund: { class: 'vat_on_fee' },
  };

  it.each(Object.entries(expected))('%s', (type, meaning) => {
    expect(ledgerClass(type)).toEqual(meaning);
    expect(ledgerClass(type.toUpperCase())).toEqual(meaning);
    expect(ledgerClass(` ${type.toLowerCase()} `)).toEqual(meaning);
  });

  it('puts unknown types in "unclassified" (and finds nothing on Object.prototype)', () => {
    for (const type of ['brand_new_fee', 'constructor', 'toString', '__proto__', 'disburse2_refund']) {
      expect(ledgerClass(type)).toEqual({ class: 'unclassified' });
    }
  });

  it('keeps the fees reading: order fees are fees, shop costs are not, unknown linked types are "other"', () => {
    expect(ledgerMeaning('renew_sold_auto')).toEqual({ role: 'fee', fee: 'listing' });
    expect(ledgerMeaning('vat_seller_services')).toEqual({ role: 'fee', fee: 'vat_on_fees' });
    expect(ledgerMeaning('prolist')).toEqual({ role: 'fee', fee: 'other' });
    expect(ledgerMeaning('renew_expired')).toEqual({ role: 'fee', fee: 'listing' });
    expect(ledgerMeaning('mystery')).toEqual({ role: 'fee', fee: 'other' });
  });

  it('reports each unclassified type once per process', () => {
    const seen = new Set<string>();
    expect(newUnclassifiedTypes(['prolist', 'Mystery', 'mystery', 'other_thing'], seen)).toEqual([
      'Mystery',
      'other_thing',
    ]);
    expect(newUnclassifiedTypes(['MYSTERY', 'third'], seen)).toEqual(['third']);
  });
});

let nextId = 1;
function entry(
  day: string,
  ledgerType: string,
  amountMinor: number,
  extra: Partial<ShopCostEntryInput> = {},
): ShopCostEntryInput {
  return {
    entryId: String(nextId++),
    ledgerType,
    parentEntryId: null,
    linkedToOrder: false,
    currency: 'USD',
    amountMinor,
    createdAt: new Date(`${day}T12:00:00Z`),
    ...extra,
  };
}

/** A month of a USD shop's shop costs, worked by hand below. */
function juneLedger(): ShopCostEntryInput[] {
  const entries: ShopCostEntryInput[] = [];
  for (let d = 1; d <= 30; d++) entries.push(entry(`2026-06-${String(d).padStart(2, '0')}`, 'prolist', -150));
  entries.push(entry('2026-06-10', 'prolist_refund', 150));
  const plus = entry('2026-06-01', 'subscription', -1000);
  entries.push(plus, entry('2026-06-01', 'vat_seller_services', -200, { parentEntryId: plus.entryId }));
  const label = entry('2026-06-05', 'shipping_labels', -450);
  const labelRefund = entry('2026-06-07', 'shipping_label_refund', 450);
  entries.push(
    label,
    entry('2026-06-05', 'vat_seller_services', -90, { parentEntryId: label.entryId }),
    labelRefund,
    entry('2026-06-07', 'vat_seller_services_refund', 90, { parentEntryId: labelRefund.entryId }),
    entry('2026-06-12', 'shipping_labels', -520),
  );
  entries.push(entry('2026-06-20', 'mystery_fee', -75));
  entries.push(entry('2026-06-03', 'listing', -20));
  entries.push(entry('2026-06-15', 'renew_sold', -20));
  // Carried by their orders or moved out: none of these is a shop cost.
  const fee = entry('2026-06-15', 'transaction', -130, { linkedToOrder: true });
  entries.push(
    fee,
    entry('2026-06-15', 'vat_seller_services', -26, { parentEntryId: fee.entryId, linkedToOrder: true }),
    entry('2026-06-16', 'renew_sold', -20, { linkedToOrder: true }),
    entry('2026-06-15', 'PAYMENT_GROSS', 2000, { linkedToOrder: true }),
    entry('2026-06-18', 'transaction', -65),
    entry('2026-06-22', 'DISBURSE2', -5000),
  );
  return entries;
}

const sameCurrencyOnly: ProfitConverter = () => ({ unavailable: true, reason: 'no rates in this test' });
/** Half a euro per dollar, except that 2026-06-30 has no rate yet. */
const halfEuro: ProfitConverter = (amount, to, onDate) =>
  onDate === '2026-06-30'
    ? { unavailable: true, reason: 'not published' }
    : { amount: money(Math.round(amount.amountMinor / 2), to), rate: '0.5', rateDate: onDate };

function totalsByKind(days: ReturnType<typeof shopCostDays>) {
  const totals: Record<string, { cost: number; entries: number; withoutRate: number }> = {};
  for (const day of days) {
    const total = (totals[day.kind] ??= { cost: 0, entries: 0, withoutRate: 0 });
    total.cost += day.costMinor;
    total.entries += day.entries;
    total.withoutRate += day.withoutRate;
  }
  return totals;
}

describe('a month of shop costs (golden, worked by hand)', () => {
  it('sums each kind in the ledger currency', () => {
    const totals = totalsByKind(shopCostDays(juneLedger(), 'USD', sameCurrencyOnly));
    expect(totals).toEqual({
      // 30 × 1.50 − 1.50 refunded
      etsy_ads: { cost: 4350, entries: 31, withoutRate: 0 },
      // Etsy Plus 10.00 + its VAT 2.00
      subscription: { cost: 1200, entries: 2, withoutRate: 0 },
      // 4.50 + 0.90 VAT − 4.50 refunded − 0.90 VAT back + 5.20
      shipping_labels: { cost: 520, entries: 5, withoutRate: 0 },
      // a new listing 0.20 and a renew_sold no sale was found for 0.20
      listing: { cost: 40, entries: 2, withoutRate: 0 },
      unclassified: { cost: 75, entries: 1, withoutRate: 0 },
    });
    const june1 = shopCostDays(juneLedger(), 'USD', sameCurrencyOnly).filter((d) => d.day === '2026-06-01');
    expect(june1.map((d) => [d.kind, d.costMinor])).toEqual([
      ['etsy_ads', 150],
      ['subscription', 1200],
    ]);
  });

  it('converts each entry at its own date, and counts an entry without a rate apart instead of as zero', () => {
    const totals = totalsByKind(shopCostDays(juneLedger(), 'EUR', halfEuro));
    expect(totals.etsy_ads).toEqual({ cost: 2100, entries: 31, withoutRate: 1 });
    expect(totals.subscription).toEqual({ cost: 600, entries: 2, withoutRate: 0 });
    expect(totals.shipping_labels?.cost).toBe(260);
  });

  it('marks an entry converted at a stand-in day’s rates as provisional: in the cost, and counted', () => {
    // 2026-06-29 and later not loaded yet: the 28th's rates stand in, as for order figures.
    const standIn: ProfitConverter = (amount, to, onDate) => ({
      amount: money(Math.round(amount.amountMinor / 2), to),
      rate: '0.5',
      rateDate: onDate > '2026-06-28' ? '2026-06-28' : onDate,
      ...(onDate > '2026-06-28' ? { provisional: { awaitingRateDate: onDate } } : {}),
    });
    const days = shopCostDays(juneLedger(), 'EUR', standIn);
    const late = days.filter((day) => day.day > '2026-06-28');
    expect(late.map((day) => [day.day, day.kind, day.costMinor, day.provisional])).toEqual([
      ['2026-06-29', 'etsy_ads', 75, 1],
      ['2026-06-30', 'etsy_ads', 75, 1],
    ]);
    expect(days.filter((day) => day.day <= '2026-06-28').every((day) => day.provisional === 0)).toBe(true);
    // Same currency needs no rate: never provisional.
    expect(shopCostDays(juneLedger(), 'USD', standIn).every((day) => day.provisional === 0)).toBe(true);
  });

  it('a VAT-registered seller reclaims the VAT on fees: it is no shop cost, the fees stay', () => {
    const totals = totalsByKind(shopCostDays(juneLedger(), 'USD', sameCurrencyOnly, { vatReclaimed: true }));
    expect(totals).toEqual({
      etsy_ads: { cost: 4350, entries: 31, withoutRate: 0 },
      // Etsy Plus 10.00, its 2.00 VAT reclaimed
      subscription: { cost: 1000, entries: 1, withoutRate: 0 },
      // 4.50 − 4.50 refunded + 5.20, the VAT charged and given back both left out
      shipping_labels: { cost: 520, entries: 3, withoutRate: 0 },
      listing: { cost: 40, entries: 2, withoutRate: 0 },
      unclassified: { cost: 75, entries: 1, withoutRate: 0 },
    });
    const orphan = entry('2026-06-02', 'vat_seller_services', -30, { parentEntryId: '999999' });
    expect(totalsByKind(shopCostDays([orphan], 'USD', sameCurrencyOnly, { vatReclaimed: true }))).toEqual({});
  });

  it('a VAT entry whose taxed entry is not stored is VAT, not dropped', () => {
    const orphan = entry('2026-06-02', 'vat_seller_services', -30, { parentEntryId: '999999' });
    expect(totalsByKind(shopCostDays([orphan], 'USD', sameCurrencyOnly))).toEqual({
      vat: { cost: 30, entries: 1, withoutRate: 0 },
    });
  });
});

describe('payouts (golden, worked by hand)', () => {
  const shape = (ledgerType: string, linkedToOrder = true, parentLedgerType: string | null = null) => ({
    ledgerType,
    parentLedgerType,
    linkedToOrder,
  });

  it('a week that reconciles to 0.00', () => {
    // Opening 0.00; two sales 25.00 + 40.00; their fees; a refund of 10.00 with 0.65 fee back;
    // Etsy Ads 3.00 with 0.60 VAT; sales tax 2.00 in and out; deposit 43.70; nothing left.
    const sums = [
      { ...shape('PAYMENT_GROSS'), entries: 2, sumMinor: 6500 },
      { ...shape('transaction'), entries: 2, sumMinor: -423 },
      { ...shape('transaction_refund'), entries: 1, sumMinor: 65 },
      { ...shape('PAYMENT_PROCESSING_FEE'), entries: 2, sumMinor: -312 },
      { ...shape('REFUND_GROSS'), entries: 1, sumMinor: -1000 },
      { ...shape('prolist', false), entries: 3, sumMinor: -300 },
      { ...shape('vat_seller_services', false, 'prolist'), entries: 3, sumMinor: -60 },
      { ...shape('sales_tax'), entries: 1, sumMinor: 0 },
      { ...shape('brand_new_type', false), entries: 1, sumMinor: -100 },
    ];
    const result = reconcilePayout({ openingMinor: 0, depositMinor: -4370, balanceAfterMinor: 0, sums });
    expect(result.lines).toEqual([
      { line: 'sales', entries: 2, sumMinor: 6500 },
      { line: 'fees', entries: 5, sumMinor: -670 },
      { line: 'refunds', entries: 1, sumMinor: -1000 },
      { line: 'shop_costs', entries: 6, sumMinor: -360 },
      { line: 'taxes', entries: 1, sumMinor: 0 },
      { line: 'other', entries: 1, sumMinor: -100 },
    ]);
    // 65.00 − 6.70 − 10.00 − 3.60 − 1.00 = 43.70
    expect(result).toMatchObject({ ourSumMinor: 4370, paidMinor: 4370, differenceMinor: 0 });
  });

  it('a week that does not: an entry missing from our ledger shows as the difference', () => {
    // Etsy paid 50.00 after carrying 5.00, but we hold only 40.00 of sales: 5.00 + 40.00 = 45.00,
    // a 5.00 difference (the missing entry, which the page lists by the sequence gap).
    const result = reconcilePayout({
      openingMinor: 500,
      depositMinor: -5000,
      balanceAfterMinor: 0,
      sums: [{ ...shape('PAYMENT_GROSS'), entries: 1, sumMinor: 4000 }],
    });
    expect(result).toMatchObject({ ourSumMinor: 4500, paidMinor: 5000, differenceMinor: -500 });
  });

  it('a reserve left in the account is not a difference', () => {
    const result = reconcilePayout({
      openingMinor: 0,
      depositMinor: -3000,
      balanceAfterMinor: 1000,
      sums: [{ ...shape('PAYMENT_GROSS'), entries: 1, sumMinor: 4000 }],
    });
    expect(result.differenceMinor).toBe(0);
  });

  it('puts an unattributed renew_sold and VAT on a shop cost with shop costs, VAT on an order fee with fees', () => {
    expect(payoutLineOf(shape('renew_sold', false))).toBe('shop_costs');
    expect(payoutLineOf(shape('renew_sold', true))).toBe('fees');
    expect(payoutLineOf(shape('vat_seller_services', false, 'shipping_labels'))).toBe('shop_costs');
    expect(payoutLineOf(shape('vat_seller_services', false, 'transaction'))).toBe('fees');
    expect(payoutLineOf(shape('billing_payment', false))).toBe('transfers');
  });
});

describe('money not paid out yet', () => {
  const sum = (ledgerType: string, entries: number, sumMinor: number) => ({
    ledgerType,
    parentLedgerType: null,
    linkedToOrder: false,
    entries,
    sumMinor,
  });

  it('reconciles when the balance after the last deposit plus every entry since is what the account holds', () => {
    // 10.00 carried + 20.00 sale − 1.50 Etsy Ads = 28.50, the balance Etsy reports now
    const result = reconcileUnpaid({
      openingMinor: 1000,
      balanceNowMinor: 2850,
      sums: [sum('PAYMENT_GROSS', 1, 2000), sum('prolist', 1, -150)],
    });
    expect(result).toEqual({
      lines: [
        { line: 'sales', entries: 1, sumMinor: 2000 },
        { line: 'shop_costs', entries: 1, sumMinor: -150 },
      ],
      ourSumMinor: 2850,
      differenceMinor: 0,
    });
  });

  it('shows an entry we do not hold as the difference, and nothing since the deposit as the opening balance', () => {
    expect(
      reconcileUnpaid({ openingMinor: 1000, balanceNowMinor: 2550, sums: [sum('PAYMENT_GROSS', 1, 2000)] }),
    ).toMatchObject({ ourSumMinor: 3000, differenceMinor: 450 });
    expect(reconcileUnpaid({ openingMinor: 0, balanceNowMinor: 0, sums: [] })).toEqual({
      lines: [],
      ourSumMinor: 0,
      differenceMinor: 0,
    });
  });
});
