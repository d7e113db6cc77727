import { feesFor, listingFee, processingFeeReturned } from '../data/fees';
import type { Tenant } from '../data/tenant';
import { adjustmentIdOf, paymentAdjustmentJson, paymentIdOf } from './payment-json';

/**
 * The shop's payment-account ledger, built once per tenant (and after a mutation) as compact
 * columns: sale fees when the order is paid, the gross and processing fee when it ships (the
 * Payment's posted_* amounts), refunds and cancellations with their fee credits, VAT on fees for
 * UK and EU shops, and a weekly DISBURSE2 payout of the balance. Amounts are signed minor units.
 */
export interface Ledger {
  created: number[];
  amount: number[];
  balance: number[];
  type: string[];
  refType: string[];
  refId: number[];
  parentSeq: number[];
  /** The order index of the entry, for payment_adjustments (-1 for payouts). */
  orderIndex: number[];
}

interface Raw {
  ts: number;
  type: string;
  refType: string;
  refId: number;
  amount: number;
  order: number;
  /** Local index of the entry this one taxes (vat_seller_services), or -1. */
  parent: number;
}

const DAY = 86_400;

export function buildLedger(tenant: Tenant): Ledger {
  const raw: Raw[] = [];
  const shop = tenant.shop;
  const add = (entry: Omit<Raw, 'parent'>, vatRate = 0): void => {
    if (entry.amount === 0) return;
    raw.push({ ...entry, parent: -1 });
    if (vatRate > 0) {
      const parent = raw.length - 1;
      const vat = Math.round(entry.amount * vatRate);
      const type = entry.amount < 0 ? 'vat_seller_services' : 'vat_seller_services_refund';
      if (vat !== 0) raw.push({ ts: entry.ts, type, refType: 'etsy', refId: 0, amount: vat, order: entry.order, parent });
    }
  };
  for (let i = 0; i < tenant.count; i++) {
    const order = tenant.order(i);
    const fees = feesFor(order, shop.currency);
    const vat = fees.vatOnFees;
    const at = order.paidTs + 5;
    const receipt = order.receiptId;
    for (const line of fees.lines) {
      add({ ts: at, type: 'transaction', refType: 'transaction', refId: line.transactionId, amount: -line.first, order: i }, vat);
      add({ ts: at, type: 'transaction_quantity', refType: 'transaction', refId: line.transactionId, amount: -line.rest, order: i }, vat);
      for (let u = 0; u < line.units; u++) add({ ts: at, type: 'renew_sold', refType: 'listing', refId: line.listingId, amount: -fees.renewSoldEach, order: i }, vat);
    }
    add({ ts: at, type: 'shipping_transaction', refType: 'receipt', refId: receipt, amount: -fees.shipping, order: i }, vat);
    add({ ts: at, type: 'offsite_ads_fee', refType: 'receipt', refId: receipt, amount: -fees.offsiteAds, order: i }, vat);
    add({ ts: at, type: 'regulatory_operating_fee', refType: 'receipt', refId: receipt, amount: -fees.regulatory, order: i }, vat);
    const paymentId = paymentIdOf(shop, order);
    if (order.shippedTs !== null) {
      const ts = order.shippedTs + 60;
      add({ ts, type: 'PAYMENT_GROSS', refType: 'shop_payment', refId: paymentId, amount: order.grandTotal, order: i });
      add({ ts, type: 'PAYMENT_PROCESSING_FEE', refType: 'shop_payment', refId: paymentId, amount: -fees.processing, order: i }, vat);
      add({ ts, type: 'sales_tax', refType: 'receipt', refId: receipt, amount: -(order.taxTotal + order.vatTotal), order: i });
    }
    if (order.canceledTs !== null) {
      // Canceled before shipping: nothing was posted, and the sale fees come back.
      const ts = order.canceledTs;
      for (const line of fees.lines) {
        add({ ts, type: 'transaction_refund', refType: 'transaction', refId: line.transactionId, amount: line.first, order: i }, vat);
        add({ ts, type: 'transaction_quantity_refund', refType: 'transaction', refId: line.transactionId, amount: line.rest, order: i }, vat);
      }
      add({ ts, type: 'shipping_transaction_refund', refType: 'receipt', refId: receipt, amount: fees.shipping, order: i }, vat);
      add({ ts, type: 'offsite_ads_fee_refund', refType: 'receipt', refId: receipt, amount: fees.offsiteAds, order: i }, vat);
      add({ ts, type: 'regulatory_operating_fee_refund', refType: 'receipt', refId: receipt, amount: fees.regulatory, order: i }, vat);
    } else if (order.refund) {
      const ts = order.refund.ts;
      const share = order.refund.amount / order.grandTotal;
      add({ ts, type: 'REFUND_GROSS', refType: 'payment_adjustment', refId: adjustmentIdOf(shop, order), amount: -order.refund.amount, order: i });
      add({ ts, type: 'REFUND_PROCESSING_FEE', refType: 'payment_adjustment', refId: adjustmentIdOf(shop, order), amount: processingFeeReturned(order, fees, order.refund.amount), order: i }, vat);
      const transactionFees = fees.lines.reduce((sum, l) => sum + l.first + l.rest, 0);
      add({ ts, type: 'transaction_refund', refType: 'transaction', refId: order.lines[0].transactionId, amount: Math.round(transactionFees * share), order: i }, vat);
      add({ ts, type: 'sales_tax', refType: 'receipt', refId: receipt, amount: Math.round((order.taxTotal + order.vatTotal) * share), order: i });
    }
  }
  // Listing fees: every listing is (re)listed when the history starts and renews every 4 months.
  const fee = listingFee(shop.currency);
  for (let at = tenant.timeline.start; at <= tenant.settings.asOf; at += 120 * DAY) {
    for (const listing of shop.listings) {
      const type = at === tenant.timeline.start ? 'listing' : 'renew_expired';
      add({ ts: at + 3600, type, refType: 'listing', refId: listing.listingId, amount: -fee, order: -1 }, shop.currency === 'USD' ? 0 : 0.2);
    }
  }
  return sequence(raw, tenant);
}

function sequence(raw: Raw[], tenant: Tenant): Ledger {
  const SLOT = 4_194_304; // 2^22: time × SLOT + local index stays an exact double
  if (raw.length >= SLOT) throw new Error(`ledger too large for one tenant (${raw.length} entries)`);
  const keys = new Float64Array(raw.length);
  for (let k = 0; k < raw.length; k++) keys[k] = raw[k].ts * SLOT + k;
  keys.sort();
  const ledger: Ledger = { created: [], amount: [], balance: [], type: [], refType: [], refId: [], parentSeq: [], orderIndex: [] };
  const seqOfLocal = new Int32Array(raw.length).fill(-1);
  let balance = 0;
  let nextPayout = firstMonday(raw.length > 0 ? raw[Math.floor(keys[0] % SLOT)].ts : 0);
  const push = (ts: number, type: string, refType: string, refId: number, amount: number, parentSeq: number, order: number) => {
    balance += amount;
    ledger.created.push(ts);
    ledger.amount.push(amount);
    ledger.balance.push(balance);
    ledger.type.push(type);
    ledger.refType.push(refType);
    ledger.refId.push(refId);
    ledger.parentSeq.push(parentSeq);
    ledger.orderIndex.push(order);
  };
  for (let n = 0; n < keys.length; n++) {
    const local = keys[n] % SLOT;
    const entry = raw[local];
    while (entry.ts >= nextPayout) {
      if (balance > 0) push(nextPayout, 'DISBURSE2', 'disbursement', tenant.shop.ledgerId * 1000 + ledger.created.length, -balance, -1, -1);
      nextPayout += 7 * DAY;
    }
    seqOfLocal[local] = ledger.created.length;
    push(entry.ts, entry.type, entry.refType, entry.refId, entry.amount, entry.parent >= 0 ? seqOfLocal[entry.parent] : -1, entry.order);
  }
  return ledger;
}

/** The first Monday 09:00 UTC after `ts`. */
function firstMonday(ts: number): number {
  const day = Math.floor(ts / DAY);
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday (4)
  const daysToMonday = (8 - weekday) % 7 || 7;
  return (day + daysToMonday) * DAY + 9 * 3600;
}

export function ledgerEntryJson(tenant: Tenant, ledger: Ledger, seq: number): Record<string, unknown> {
  const shop = tenant.shop;
  const parent = ledger.parentSeq[seq];
  const type = ledger.type[seq];
  const order = ledger.orderIndex[seq];
  const adjustment = type === 'REFUND_GROSS' && order >= 0 ? paymentAdjustmentJson(shop, tenant.order(order)) : null;
  return {
    entry_id: shop.ledgerEntryBase + seq,
    ledger_id: shop.ledgerId,
    sequence_number: seq + 1,
    amount: ledger.amount[seq],
    currency: shop.currency,
    description: type,
    balance: ledger.balance[seq],
    create_date: ledger.created[seq],
    created_timestamp: ledger.created[seq],
    ledger_type: type,
    reference_type: ledger.refType[seq],
    reference_id: ledger.refId[seq],
    parent_entry_id: parent >= 0 ? shop.ledgerEntryBase + parent : 0,
    payment_adjustments: adjustment ? [adjustment] : [],
  };
}

export function tenantLedger(tenant: Tenant): Ledger {
  return tenant.derive('ledger', () => buildLedger(tenant));
}
