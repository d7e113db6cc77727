import { minorUnits, type MinorUnits } from '@pod/domain';
import { decodeHtmlEntities } from '../payload/html';
import { optEtsyMoney, optKnownCurrency, reqCurrency, reqEtsyMoney, type CurrencyRelabel } from '../payload/money';
import {
  asRecord,
  child,
  fail,
  firstKey,
  mapEach,
  normalisedStatus,
  optArray,
  optBool,
  optEpochSeconds,
  optId,
  optInt,
  optString,
  reqArray,
  reqEpochSeconds,
  reqId,
  reqInt,
  reqString,
  type Ctx,
  type MappedList,
  type Rec,
} from '../payload/read';
import type {
  EtsyLedgerEntry,
  EtsyMe,
  EtsyPayment,
  EtsyPaymentAdjustment,
  EtsyReceipt,
  EtsyRefund,
  EtsyShipment,
  EtsyShop,
  EtsyTokenSet,
  EtsyTransaction,
  EtsyVariation,
} from './types';

/**
 * Etsy payload → PodProfit types. Unknown fields are ignored; a missing or mistyped required
 * field throws PayloadSchemaError naming it. List mappers map each record on its own and
 * return `{ records, rejected }`.
 */
const root = (path = ''): Ctx => ({ provider: 'etsy', path });

function optText(rec: Rec, key: string, ctx: Ctx): string | null {
  const value = optString(rec, key, ctx);
  return value === null ? null : decodeHtmlEntities(value);
}

function optLower(rec: Rec, key: string, ctx: Ctx): string | null {
  const value = optString(rec, key, ctx);
  return value === null ? null : normalisedStatus(value);
}

function optMinor(rec: Rec, key: string, ctx: Ctx): MinorUnits | null {
  const value = optInt(rec, key, ctx);
  return value === null ? null : minorUnits(value);
}

export function mapEtsyMe(payload: unknown): EtsyMe {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  const shopId = optId(rec, 'shop_id', ctx);
  return { userId: reqId(rec, 'user_id', ctx), shopId: shopId === '0' ? null : shopId };
}

export function mapEtsyShop(payload: unknown): EtsyShop {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  const country = optString(rec, 'shop_location_country_iso', ctx) ?? optString(rec, 'shipping_from_country_iso', ctx);
  return {
    shopId: reqId(rec, 'shop_id', ctx),
    name: decodeHtmlEntities(reqString(rec, 'shop_name', ctx)),
    currency: reqCurrency(rec, 'currency_code', ctx),
    country: country ? country.trim().toUpperCase() : null,
  };
}

function mapVariation(item: unknown, ctx: Ctx): EtsyVariation {
  const rec = asRecord(item, ctx);
  return { name: optText(rec, 'formatted_name', ctx) ?? '', value: optText(rec, 'formatted_value', ctx) ?? '' };
}

function mapTransaction(item: unknown, ctx: Ctx, inexact: string[]): EtsyTransaction {
  const rec = asRecord(item, ctx);
  const sku = optString(rec, 'sku', ctx);
  return {
    transactionId: reqId(rec, 'transaction_id', ctx),
    receiptId: reqId(rec, 'receipt_id', ctx),
    listingId: optId(rec, 'listing_id', ctx),
    productId: optId(rec, 'product_id', ctx),
    title: optText(rec, 'title', ctx),
    sku: sku === null || sku.trim() === '' ? null : sku.trim(),
    quantity: reqInt(rec, 'quantity', ctx),
    price: reqEtsyMoney(rec, 'price', ctx, inexact),
    shippingCost: optEtsyMoney(rec, 'shipping_cost', ctx, inexact),
    isDigital: optBool(rec, 'is_digital', ctx, false),
    createdAt: optEpochSeconds(rec, firstKey(rec, ['created_timestamp', 'create_timestamp']), ctx),
    paidAt: optEpochSeconds(rec, 'paid_timestamp', ctx),
    shippedAt: optEpochSeconds(rec, 'shipped_timestamp', ctx),
    variations: optArray(rec, 'variations', ctx).map((v, i) => mapVariation(v, child(child(ctx, 'variations'), i))),
  };
}

function mapRefund(item: unknown, ctx: Ctx, inexact: string[]): EtsyRefund {
  const rec = asRecord(item, ctx);
  return {
    amount: reqEtsyMoney(rec, 'amount', ctx, inexact),
    createdAt: optEpochSeconds(rec, firstKey(rec, ['created_timestamp', 'create_timestamp']), ctx),
    reason: optString(rec, 'reason', ctx),
    status: optLower(rec, 'status', ctx),
  };
}

function mapShipment(item: unknown, ctx: Ctx): EtsyShipment {
  const rec = asRecord(item, ctx);
  return {
    receiptShippingId: optId(rec, 'receipt_shipping_id', ctx),
    carrierName: optString(rec, 'carrier_name', ctx),
    trackingCode: optString(rec, 'tracking_code', ctx),
    notifiedAt: optEpochSeconds(rec, 'shipment_notification_timestamp', ctx),
  };
}

export function mapEtsyReceipt(payload: unknown, ctx: Ctx = root()): EtsyReceipt {
  const rec = asRecord(payload, ctx);
  const inexact: string[] = [];
  const grandtotal = reqEtsyMoney(rec, 'grandtotal', ctx, inexact);
  const createdKey = firstKey(rec, ['created_timestamp', 'create_timestamp']);
  const createdAt = reqEpochSeconds(rec, createdKey, ctx);
  const updatedAt = optEpochSeconds(rec, firstKey(rec, ['updated_timestamp', 'update_timestamp']), ctx) ?? createdAt;
  const status = reqString(rec, 'status', ctx);
  if (status.trim() === '') fail(child(ctx, 'status'), 'is empty');
  const list = <T>(key: string, map: (item: unknown, at: Ctx) => T): T[] =>
    optArray(rec, key, ctx).map((item, i) => map(item, child(child(ctx, key), i)));
  return {
    receiptId: reqId(rec, 'receipt_id', ctx),
    receiptType: optInt(rec, 'receipt_type', ctx),
    sellerUserId: optId(rec, 'seller_user_id', ctx),
    buyerUserId: optId(rec, 'buyer_user_id', ctx),
    name: optText(rec, 'name', ctx),
    zip: optString(rec, 'zip', ctx),
    countryIso: optString(rec, 'country_iso', ctx)?.trim().toUpperCase() || null,
    status: normalisedStatus(status),
    paymentMethod: optLower(rec, 'payment_method', ctx),
    isPaid: optBool(rec, 'is_paid', ctx, false),
    isShipped: optBool(rec, 'is_shipped', ctx, false),
    createdAt,
    updatedAt,
    currency: grandtotal.currency,
    grandtotal,
    subtotal: reqEtsyMoney(rec, 'subtotal', ctx, inexact),
    totalPrice: reqEtsyMoney(rec, 'total_price', ctx, inexact),
    totalShippingCost: reqEtsyMoney(rec, 'total_shipping_cost', ctx, inexact),
    totalTaxCost: reqEtsyMoney(rec, 'total_tax_cost', ctx, inexact),
    totalVatCost: optEtsyMoney(rec, 'total_vat_cost', ctx, inexact),
    discountAmt: optEtsyMoney(rec, 'discount_amt', ctx, inexact),
    giftWrapPrice: optEtsyMoney(rec, 'gift_wrap_price', ctx, inexact),
    transactions: list('transactions', (item, at) => mapTransaction(item, at, inexact)),
    refunds: list('refunds', (item, at) => mapRefund(item, at, inexact)),
    shipments: list('shipments', mapShipment),
    inexactAmounts: inexact,
  };
}

function mapAdjustment(item: unknown, ctx: Ctx): EtsyPaymentAdjustment {
  const rec = asRecord(item, ctx);
  const success = rec.is_success;
  return {
    paymentAdjustmentId: reqId(rec, 'payment_adjustment_id', ctx),
    paymentId: optId(rec, 'payment_id', ctx),
    status: optLower(rec, 'status', ctx),
    isSuccess: success === undefined || success === null ? null : optBool(rec, 'is_success', ctx, false),
    reasonCode: optString(rec, 'reason_code', ctx),
    totalAdjustmentAmount: optMinor(rec, 'total_adjustment_amount', ctx),
    shopTotalAdjustmentAmount: optMinor(rec, 'shop_total_adjustment_amount', ctx),
    buyerTotalAdjustmentAmount: optMinor(rec, 'buyer_total_adjustment_amount', ctx),
    totalFeeAdjustmentAmount: optMinor(rec, 'total_fee_adjustment_amount', ctx),
    createdAt: optEpochSeconds(rec, firstKey(rec, ['created_timestamp', 'create_timestamp']), ctx),
  };
}

function adjustments(rec: Rec, ctx: Ctx): EtsyPaymentAdjustment[] {
  return optArray(rec, 'payment_adjustments', ctx).map((item, i) =>
    mapAdjustment(item, child(child(ctx, 'payment_adjustments'), i)),
  );
}

/**
 * integrations.md §a.6 (etsy/open-api issue #564): some payments carry the buyer's currency code
 * while their values are in the shop currency. That is its signature: `amount_gross` labelled in
 * `buyer_currency`, which is not `shop_currency`. Such amounts are read in the shop currency (the
 * receipt's, whose grand total `amount_gross` is), so a fee is never converted from the wrong one.
 */
function buyerLabelOnShopValues(rec: Rec): CurrencyRelabel | null {
  const gross = rec.amount_gross;
  const labelled = gross && typeof gross === 'object' ? optKnownCurrency((gross as Rec).currency_code) : null;
  const shop = optKnownCurrency(rec.shop_currency);
  const buyer = optKnownCurrency(rec.buyer_currency);
  if (labelled === null || shop === null || labelled === shop || labelled !== buyer) return null;
  return { from: labelled, to: shop };
}

export function mapEtsyPayment(payload: unknown, ctx: Ctx = root()): EtsyPayment {
  const rec = asRecord(payload, ctx);
  const inexact: string[] = [];
  const relabel = buyerLabelOnShopValues(rec);
  const money = (key: string) => reqEtsyMoney(rec, key, ctx, inexact, relabel);
  const optMoney = (key: string) => optEtsyMoney(rec, key, ctx, inexact, relabel);
  return {
    paymentId: reqId(rec, 'payment_id', ctx),
    receiptId: reqId(rec, 'receipt_id', ctx),
    shopId: optId(rec, 'shop_id', ctx),
    buyerUserId: optId(rec, 'buyer_user_id', ctx),
    amountGross: money('amount_gross'),
    amountFees: money('amount_fees'),
    amountNet: money('amount_net'),
    postedGross: optMoney('posted_gross'),
    postedFees: optMoney('posted_fees'),
    postedNet: optMoney('posted_net'),
    adjustedGross: optMoney('adjusted_gross'),
    adjustedFees: optMoney('adjusted_fees'),
    adjustedNet: optMoney('adjusted_net'),
    currency: optString(rec, 'currency', ctx)?.trim().toUpperCase() || null,
    shopCurrency: optString(rec, 'shop_currency', ctx)?.trim().toUpperCase() || null,
    buyerCurrency: optString(rec, 'buyer_currency', ctx)?.trim().toUpperCase() || null,
    status: optLower(rec, 'status', ctx),
    shippedAt: optEpochSeconds(rec, 'shipped_timestamp', ctx),
    createdAt: optEpochSeconds(rec, firstKey(rec, ['created_timestamp', 'create_timestamp']), ctx),
    updatedAt: optEpochSeconds(rec, firstKey(rec, ['updated_timestamp', 'update_timestamp']), ctx),
    adjustments: adjustments(rec, ctx),
    inexactAmounts: inexact,
  };
}

export function mapEtsyLedgerEntry(payload: unknown, ctx: Ctx = root()): EtsyLedgerEntry {
  const rec = asRecord(payload, ctx);
  const currency = reqCurrency(rec, 'currency', ctx);
  const balance = optInt(rec, 'balance', ctx);
  const ledgerType = reqString(rec, 'ledger_type', ctx).trim();
  if (ledgerType === '') fail(child(ctx, 'ledger_type'), 'is empty');
  return {
    entryId: reqId(rec, 'entry_id', ctx),
    ledgerId: optId(rec, 'ledger_id', ctx),
    sequenceNumber: optInt(rec, 'sequence_number', ctx),
    amount: { amountMinor: minorUnits(reqInt(rec, 'amount', ctx)), currency },
    balance: balance === null ? null : { amountMinor: minorUnits(balance), currency },
    ledgerType,
    description: optString(rec, 'description', ctx),
    referenceType: optString(rec, 'reference_type', ctx),
    referenceId: optReference(rec, ctx),
    parentEntryId: optId(rec, 'parent_entry_id', ctx),
    createdAt: reqEpochSeconds(rec, firstKey(rec, ['created_timestamp', 'create_date']), ctx),
    paymentAdjustments: adjustments(rec, ctx),
  };
}

/** `reference_id` is documented as a string but arrives as a number (issue #295): keep its text. */
function optReference(rec: Rec, ctx: Ctx): string | null {
  const value = rec.reference_id;
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) fail(child(ctx, 'reference_id'), 'is not a whole number');
    return String(value);
  }
  if (typeof value === 'string') return value.trim();
  return fail(child(ctx, 'reference_id'), 'is not a string or number');
}

/** `{count, results}` envelope → count and the mapped results, each record on its own. */
export function mapEtsyPage<T>(
  payload: unknown,
  idKey: string,
  mapOne: (item: unknown, ctx: Ctx) => T,
): MappedList<T> & { count: number } {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  const results = reqArray(rec, 'results', ctx);
  const count = optInt(rec, 'count', ctx) ?? results.length;
  return { count, ...mapEach(results, child(ctx, 'results'), idKey, mapOne) };
}

export const mapEtsyReceipts = (payload: unknown) => mapEtsyPage(payload, 'receipt_id', mapEtsyReceipt);
export const mapEtsyPayments = (payload: unknown) => mapEtsyPage(payload, 'payment_id', mapEtsyPayment);
export const mapEtsyLedgerEntries = (payload: unknown) => mapEtsyPage(payload, 'entry_id', mapEtsyLedgerEntry);

/** The token endpoint's answer → EtsyTokenSet; `nowMs` anchors `expires_in`. */
export function mapEtsyTokenResponse(payload: unknown, nowMs: number): EtsyTokenSet {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  const accessToken = reqString(rec, 'access_token', ctx);
  const refreshToken = reqString(rec, 'refresh_token', ctx);
  const expiresIn = reqInt(rec, 'expires_in', ctx);
  if (expiresIn <= 0) fail(child(ctx, 'expires_in'), 'is not positive');
  const tokenType = optString(rec, 'token_type', ctx);
  if (tokenType !== null && tokenType.toLowerCase() !== 'bearer') fail(child(ctx, 'token_type'), 'is not Bearer');
  const prefix = /^(\d+)\./.exec(accessToken) ?? /^(\d+)\./.exec(refreshToken);
  if (!prefix) fail(child(ctx, 'access_token'), 'carries no user-id prefix');
  return { accessToken, refreshToken, accessTokenExpiresAt: new Date(nowMs + expiresIn * 1000), etsyUserId: prefix[1] };
}
