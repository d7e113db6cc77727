import { feesFor, inShopCurrency, listingFee, processingFeeReturned } from '../data/fees';
import type { OrderModel } from '../data/order-generator';
import type { Tenant } from '../data/tenant';
import { Rng, STREAM } from '../core/random';
import { adjustmentIdOf, paymentIdOf } from './payment-json';

/**
 * One ledger entry before it is placed in time. `key` names the entry for good (the order and
 * its slot, or the account event), so an entry keeps its id however the ledger around it changes.
 */
export interface RawEntry {
  ts: number;
  type: string;
  refType: string;
  /** null for account-level entries that reference no object (integrations.md a.7: "string, null"). */
  refId: number | null;
  amount: number;
  /** The order index (-1 for account-level entries). */
  order: number;
  /** Local index of the entry this one taxes (VAT on fees), or -1. */
  parent: number;
  key: number;
}

const DAY = 86_400;
/** Slots per order in the identity keys: sale fees, then posting, credits and shipping labels. */
const SLOTS = 256;
const REGION = { sale: 0, post: 128, credit: 160, label: 240 } as const;
/** Account-level keys are negative, -(kind × 1e9 + n × 2) - 1; a fee's VAT entry takes key + 1. */
const ACCOUNT = { listing: 1, payout: 2, ads: 3, adsRefund: 4, subscription: 5, credit: 6 } as const;

export function accountKey(kind: keyof typeof ACCOUNT, n: number): number {
  return -(ACCOUNT[kind] * 1e9 + n * 2) - 1;
}

/** VAT on a fee is refunded under its own type; the one on processing fees is Etsy Payments' (UNCONFIRMED pairing). */
const VAT_TYPE = {
  fee: 'vat_seller_services',
  feeRefund: 'vat_seller_services_refund',
  processing: 'vat_on_processing_fees',
  processingRefund: 'VAT_REFUND_EP',
} as const;

class EntryWriter {
  readonly raw: RawEntry[] = [];
  private slot = 0;
  private base = 0;

  constructor(readonly vatRate: number) {}

  /** Entries of order `index` in `region` get keys index × SLOTS + region + 0, 1, 2, … */
  region(index: number, region: keyof typeof REGION): void {
    this.base = index * SLOTS + REGION[region];
    this.slot = 0;
  }

  /** An order entry; with `vat`, the VAT Etsy charges on that fee follows it, linked by parent. */
  order(entry: Omit<RawEntry, 'parent' | 'key'>, vat: 'fee' | 'processing' | null = null): void {
    const key = this.base + this.slot;
    this.slot += 2;
    this.push(entry, key, vat);
  }

  account(entry: Omit<RawEntry, 'parent' | 'key'>, key: number, vat: boolean): void {
    this.push(entry, key, vat ? 'fee' : null);
  }

  private push(entry: Omit<RawEntry, 'parent' | 'key'>, key: number, vat: 'fee' | 'processing' | null): void {
    if (entry.amount === 0) return;
    this.raw.push({ ...entry, parent: -1, key });
    if (vat === null || this.vatRate === 0) return;
    const amount = Math.round(entry.amount * this.vatRate);
    if (amount === 0) return;
    const type = entry.amount < 0 ? VAT_TYPE[vat] : VAT_TYPE[vat === 'fee' ? 'feeRefund' : 'processingRefund'];
    // Documented shape of vat_seller_services: reference_type "etsy", reference_id 0, parent_entry_id.
    this.raw.push({
      ts: entry.ts,
      type,
      refType: 'etsy',
      refId: 0,
      amount,
      order: entry.order,
      parent: this.raw.length - 1,
      key: key + 1,
    });
  }
}

/**
 * Every entry of the shop's payment account, in no particular order: per order the sale fees
 * when it is paid, the gross, processing fee and sales tax when it ships (the Payment's posted_*),
 * credits on a cancellation or refund, shipping labels; per account the listing fees, Etsy Ads,
 * Etsy Plus and seller credits. VAT on every fee for UK and EU shops.
 */
export function ledgerEntries(tenant: Tenant): RawEntry[] {
  const shop = tenant.shop;
  const writer = new EntryWriter(shop.currency === 'USD' ? 0 : 0.2);
  for (let i = 0; i < tenant.count; i++) orderEntries(writer, tenant, tenant.order(i));
  accountEntries(writer, tenant);
  return writer.raw;
}

function orderEntries(w: EntryWriter, tenant: Tenant, order: OrderModel): void {
  const shop = tenant.shop;
  const i = order.index;
  if (order.paidTs === null) return;
  const fees = feesFor(order, shop.currency);
  const receipt = order.receiptId;
  const at = order.paidTs + 5;
  w.region(i, 'sale');
  for (const line of fees.lines) {
    w.order(
      { ts: at, type: 'transaction', refType: 'transaction', refId: line.transactionId, amount: -line.first, order: i },
      'fee',
    );
    w.order(
      {
        ts: at,
        type: 'transaction_quantity',
        refType: 'transaction',
        refId: line.transactionId,
        amount: -line.rest,
        order: i,
      },
      'fee',
    );
    for (let u = 0; u < line.units; u++)
      w.order(
        {
          ts: at,
          type: 'renew_sold',
          refType: 'listing',
          refId: line.listingId,
          amount: -fees.renewSoldEach,
          order: i,
        },
        'fee',
      );
  }
  w.order(
    { ts: at, type: 'shipping_transaction', refType: 'receipt', refId: receipt, amount: -fees.shipping, order: i },
    'fee',
  );
  w.order(
    { ts: at, type: 'offsite_ads_fee', refType: 'receipt', refId: receipt, amount: -fees.offsiteAds, order: i },
    'fee',
  );
  w.order(
    {
      ts: at,
      type: 'regulatory_operating_fee',
      refType: 'receipt',
      refId: receipt,
      amount: -fees.regulatory,
      order: i,
    },
    'fee',
  );
  const paymentId = paymentIdOf(shop, order);
  if (order.shippedTs !== null) {
    const ts = order.shippedTs + 60;
    w.region(i, 'post');
    w.order({
      ts,
      type: 'PAYMENT_GROSS',
      refType: 'shop_payment',
      refId: paymentId,
      amount: order.grandTotal,
      order: i,
    });
    w.order(
      {
        ts,
        type: 'PAYMENT_PROCESSING_FEE',
        refType: 'shop_payment',
        refId: paymentId,
        amount: -fees.processing,
        order: i,
      },
      'processing',
    );
    w.order({
      ts,
      type: 'sales_tax',
      refType: 'receipt',
      refId: receipt,
      amount: -(order.taxTotal + order.vatTotal),
      order: i,
    });
  }
  if (order.shippingLabel && order.shippedTs !== null) {
    // Bought just before shipping; an adjustment (a carrier's re-weigh) follows days later.
    // Label ids live in their own range, well above every receipt id.
    const labelId = order.receiptId + 50_000_000_000;
    w.region(i, 'label');
    w.order(
      {
        ts: order.shippedTs - 1800,
        type: 'shipping_labels',
        refType: 'shipping_label',
        refId: labelId,
        amount: -order.shippingLabel.cost,
        order: i,
      },
      'fee',
    );
    const adjustedAt = order.shippedTs + 6 * DAY;
    if (adjustedAt <= tenant.settings.asOf)
      w.order(
        {
          ts: adjustedAt,
          type: 'shipping_label_adjustment',
          refType: 'shipping_label',
          refId: labelId,
          amount: -order.shippingLabel.adjustment,
          order: i,
        },
        'fee',
      );
  }
  const share = order.canceledTs !== null ? 1 : order.refund ? order.refund.amount / order.grandTotal : 0;
  const creditTs = order.canceledTs ?? order.refund?.ts;
  if (share === 0 || creditTs === undefined) return;
  // Credits (a.6/a.7): each fee comes back under its *_refund type, in proportion to the amount
  // refunded (all of it on a cancellation), each transaction fee on its own line.
  const back = (fee: number) => Math.round(fee * share);
  w.region(i, 'credit');
  // The gross is refunded once it was paid out: a refund, or a cancellation after shipping.
  if (order.refund && (order.canceledTs === null || order.shippedTs !== null)) {
    const adjustmentId = adjustmentIdOf(shop, order);
    w.order({
      ts: creditTs,
      type: 'REFUND_GROSS',
      refType: 'payment_adjustment',
      refId: adjustmentId,
      amount: -order.refund.amount,
      order: i,
    });
    w.order(
      {
        ts: creditTs,
        type: 'REFUND_PROCESSING_FEE',
        refType: 'payment_adjustment',
        refId: adjustmentId,
        amount: processingFeeReturned(order, fees, order.refund.amount),
        order: i,
      },
      'processing',
    );
    w.order({
      ts: creditTs,
      type: 'sales_tax',
      refType: 'receipt',
      refId: receipt,
      amount: back(order.taxTotal + order.vatTotal),
      order: i,
    });
  }
  for (const line of fees.lines) {
    w.order(
      {
        ts: creditTs,
        type: 'transaction_refund',
        refType: 'transaction',
        refId: line.transactionId,
        amount: back(line.first),
        order: i,
      },
      'fee',
    );
    w.order(
      {
        ts: creditTs,
        type: 'transaction_quantity_refund',
        refType: 'transaction',
        refId: line.transactionId,
        amount: back(line.rest),
        order: i,
      },
      'fee',
    );
  }
  w.order(
    {
      ts: creditTs,
      type: 'shipping_transaction_refund',
      refType: 'receipt',
      refId: receipt,
      amount: back(fees.shipping),
      order: i,
    },
    'fee',
  );
  w.order(
    {
      ts: creditTs,
      type: 'offsite_ads_fee_refund',
      refType: 'receipt',
      refId: receipt,
      amount: back(fees.offsiteAds),
      order: i,
    },
    'fee',
  );
  w.order(
    {
      ts: creditTs,
      type: 'regulatory_operating_fee_refund',
      refType: 'receipt',
      refId: receipt,
      amount: back(fees.regulatory),
      order: i,
    },
    'fee',
  );
}

function accountEntries(w: EntryWriter, tenant: Tenant): void {
  const shop = tenant.shop;
  const start = tenant.timeline.start;
  const asOf = tenant.settings.asOf;
  const inShop = (usdCents: number) => inShopCurrency(usdCents, shop.currency);
  // Listing fees: every listing is (re)listed when the history starts and renews every 4 months.
  const fee = listingFee(shop.currency);
  for (let cycle = 0, at = start; at <= asOf; cycle++, at += 120 * DAY) {
    shop.listings.forEach((listing, n) => {
      const type = cycle === 0 ? 'listing' : 'renew_expired';
      w.account(
        { ts: at + 3600, type, refType: 'listing', refId: listing.listingId, amount: -fee, order: -1 },
        accountKey('listing', cycle * 10_000 + n),
        true,
      );
    });
  }
  // Etsy Ads (prolist): a daily budget spent on about a third of the days, now and then a credit
  // for invalid clicks; Etsy Plus (subscription) monthly for some shops; occasional seller credits.
  // UNCONFIRMED: what these reference; modelled as reference_type "etsy" with reference_id null.
  const plus = Rng.of(shop.seed, 'etsy-plus').chance(0.5);
  const firstDay = Math.floor(start / DAY);
  for (let day = firstDay; (day + 1) * DAY <= asOf; day++) {
    const rng = Rng.mix(shop.seedHash, STREAM.account, day);
    const ads = rng.chance(0.35) ? inShop(rng.int(100, 600)) : 0;
    const adsRefund = ads > 0 && rng.chance(0.04) ? Math.round(ads * 0.3) : 0;
    const credit = rng.chance(1 / 45) ? inShop(rng.int(500, 2000)) : 0;
    const ts = day * DAY;
    w.account(
      { ts: ts + 23 * 3600, type: 'prolist', refType: 'etsy', refId: null, amount: -ads, order: -1 },
      accountKey('ads', day),
      true,
    );
    if (ts + DAY + 12 * 3600 <= asOf)
      w.account(
        {
          ts: ts + DAY + 12 * 3600,
          type: 'prolist_refund',
          refType: 'etsy',
          refId: null,
          amount: adsRefund,
          order: -1,
        },
        accountKey('adsRefund', day),
        true,
      );
    w.account(
      { ts: ts + 15 * 3600, type: 'seller_credit', refType: 'etsy', refId: null, amount: credit, order: -1 },
      accountKey('credit', day),
      false,
    );
    if (plus && new Date(ts * 1000).getUTCDate() === 1)
      w.account(
        { ts: ts + 2 * 3600, type: 'subscription', refType: 'etsy', refId: null, amount: -inShop(1000), order: -1 },
        accountKey('subscription', day),
        true,
      );
  }
}
