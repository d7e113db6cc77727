import { feesFor, inShopCurrency, listingFee, processingFeeReturned, vatOnFeesRate } from '../data/fees';
import type { OrderModel } from '../data/order-generator';
import type { Tenant } from '../data/tenant';
import { Rng, STREAM } from '../core/random';
import { accountConverter, type AccountConverter } from './account-currency';
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
const ACCOUNT = { listing: 1, payout: 2, ads: 3, adsRefund: 4, subscription: 5, credit: 6, newListing: 7 } as const;

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

/**
 * An entry as written: its amount in the listing currency (converted to the payment account's
 * at the entry's day), or with `inAccount` already in the account's currency.
 */
type EntryInput = Omit<RawEntry, 'parent' | 'key'> & { inAccount?: boolean };

class EntryWriter {
  readonly raw: RawEntry[] = [];
  private slot = 0;
  private base = 0;

  constructor(
    readonly vatRate: number,
    readonly account: AccountConverter,
  ) {}

  /** Entries of order `index` in `region` get keys index × SLOTS + region + 0, 1, 2, … */
  region(index: number, region: keyof typeof REGION): void {
    this.base = index * SLOTS + REGION[region];
    this.slot = 0;
  }

  /** An order entry; with `vat`, the VAT Etsy charges on that fee follows it, linked by parent. */
  order(entry: EntryInput, vat: 'fee' | 'processing' | null = null): void {
    const key = this.base + this.slot;
    this.slot += 2;
    this.push(entry, key, vat);
  }

  /** An account-level entry: its amount is in the payment account's currency. */
  accountEntry(entry: Omit<EntryInput, 'inAccount'>, key: number, vat: boolean): void {
    this.push({ ...entry, inAccount: true }, key, vat ? 'fee' : null);
  }

  private push(input: EntryInput, key: number, vat: 'fee' | 'processing' | null): void {
    const { inAccount, ...fields } = input;
    const entry = { ...fields, amount: inAccount ? fields.amount : this.account.convert(fields.amount, fields.ts) };
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
  const writer = new EntryWriter(vatOnFeesRate(shop.country), accountConverter(tenant));
  for (let i = 0; i < tenant.count; i++) orderEntries(writer, tenant, tenant.order(i));
  accountEntries(writer, tenant);
  return writer.raw;
}

function orderEntries(w: EntryWriter, tenant: Tenant, order: OrderModel): void {
  const shop = tenant.shop;
  const i = order.index;
  if (order.paidTs === null) return;
  const fees = feesFor(order, shop);
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
          type: autoRenews(tenant, line.listingId) ? 'renew_sold_auto' : 'renew_sold',
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
      // Converted sale proceeds arrive less the 2.5 % conversion fee (Etsy help 360000344668).
      amount: w.account.proceeds(order.grandTotal, ts),
      inAccount: true,
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
  labelEntries(w, tenant, order);
  creditEntries(w, tenant, order, fees);
}

/**
 * A label bought on Etsy just before shipping; an adjustment (a carrier's re-weigh) follows days
 * later, or now and then the seller voids the label and Etsy credits it (`shipping_label_refund`,
 * its VAT back) with no adjustment. Label ids live in their own range, above every receipt id.
 */
function labelEntries(w: EntryWriter, tenant: Tenant, order: OrderModel): void {
  const i = order.index;
  if (!order.shippingLabel || order.shippedTs === null) return;
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
  // The void is drawn from its own stream, so the orders' other values stay as they were.
  const refundedAt = order.shippedTs + 2 * DAY;
  if (Rng.mix(tenant.shop.seedHash, STREAM.labelRefund, i).chance(0.2)) {
    if (refundedAt <= tenant.settings.asOf)
      w.order(
        {
          ts: refundedAt,
          type: 'shipping_label_refund',
          refType: 'shipping_label',
          refId: labelId,
          amount: order.shippingLabel.cost,
          order: i,
        },
        'fee',
      );
    return;
  }
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

/** Credits on a cancellation or refund (a.6/a.7). */
function creditEntries(w: EntryWriter, tenant: Tenant, order: OrderModel, fees: ReturnType<typeof feesFor>): void {
  const shop = tenant.shop;
  const i = order.index;
  const receipt = order.receiptId;
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

/** Whether the seller lets the listing renew automatically (about two in three listings). */
function autoRenews(tenant: Tenant, listingId: number): boolean {
  return Rng.mix(tenant.shop.seedHash, STREAM.autoRenew, listingId % 1_000_000_007).chance(0.65);
}

/**
 * Account-level entries, in the payment account's currency: listing fees (every listing listed
 * when the history starts, renewed every 4 months as `auto_renew_expired` or `renew_expired`,
 * and a few new listings a month), Etsy Ads (`prolist`) charged every day with now and then a
 * `prolist_refund`, Etsy Plus (`subscription`, USD 10 a month), occasional seller credits.
 * UNCONFIRMED: what the account entries reference; modelled as reference_type "etsy" with
 * reference_id null.
 */
function accountEntries(w: EntryWriter, tenant: Tenant): void {
  const shop = tenant.shop;
  const start = tenant.timeline.start;
  const asOf = tenant.settings.asOf;
  const inAccount = (usdCents: number) => inShopCurrency(usdCents, shop.paymentCurrency);
  const fee = listingFee(shop.paymentCurrency);
  for (let cycle = 0, at = start; at <= asOf; cycle++, at += 120 * DAY) {
    shop.listings.forEach((listing, n) => {
      const renewal = autoRenews(tenant, listing.listingId) ? 'auto_renew_expired' : 'renew_expired';
      w.accountEntry(
        {
          ts: at + 3600,
          type: cycle === 0 ? 'listing' : renewal,
          refType: 'listing',
          refId: listing.listingId,
          amount: -fee,
          order: -1,
        },
        accountKey('listing', cycle * 10_000 + n),
        true,
      );
    });
  }
  const firstDay = Math.floor(start / DAY);
  for (let day = firstDay; (day + 1) * DAY <= asOf; day++) {
    const rng = Rng.mix(shop.seedHash, STREAM.account, day);
    const ads = inAccount(rng.int(100, 600));
    const adsRefund = rng.chance(0.04) ? Math.round(ads * 0.3) : 0;
    const credit = rng.chance(1 / 45) ? inAccount(rng.int(500, 2000)) : 0;
    // A new listing (a design the seller adds) on about one day in ten: USD 0.20, never sold here.
    const newListing = rng.chance(0.1) ? 5_000_000_000 + (Math.imul(shop.seedHash ^ day, 0x9e3779b1) >>> 0) : 0;
    const ts = day * DAY;
    w.accountEntry(
      { ts: ts + 23 * 3600, type: 'prolist', refType: 'etsy', refId: null, amount: -ads, order: -1 },
      accountKey('ads', day),
      true,
    );
    if (ts + DAY + 12 * 3600 <= asOf)
      w.accountEntry(
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
    w.accountEntry(
      { ts: ts + 15 * 3600, type: 'seller_credit', refType: 'etsy', refId: null, amount: credit, order: -1 },
      accountKey('credit', day),
      false,
    );
    if (newListing > 0)
      w.accountEntry(
        { ts: ts + 10 * 3600, type: 'listing', refType: 'listing', refId: newListing, amount: -fee, order: -1 },
        accountKey('newListing', day),
        true,
      );
    if (new Date(ts * 1000).getUTCDate() === 1)
      w.accountEntry(
        { ts: ts + 2 * 3600, type: 'subscription', refType: 'etsy', refId: null, amount: -inAccount(1000), order: -1 },
        accountKey('subscription', day),
        true,
      );
  }
}
