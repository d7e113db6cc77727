import type { CurrencyCode } from '@pod/domain';
import { decodeHtmlEntities } from '../payload/html';
import { centsToMoney } from '../payload/money';
import {
  asRecord,
  child,
  fail,
  intFrom,
  mapEach,
  optArray,
  optBool,
  optId,
  optInt,
  optString,
  reqInt,
  reqArray,
  type Ctx,
  type MappedList,
  type Rec,
} from '../payload/read';
import type { PrintifyAddress, PrintifyLineItem, PrintifyOrder, PrintifyShipment, PrintifyShop } from './types';

/**
 * Printify payload → PodProfit types. Amounts are "cents" of a currency the payload does
 * not name: the caller supplies it (a per-account setting, USD by default).
 */
const root = (path = ''): Ctx => ({ provider: 'printify', path });

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/** `YYYY-MM-DD HH:MM:SS+00:00` (or ISO 8601 with T/Z/fractions); no zone means UTC, as Printify documents. */
export function parsePrintifyTime(text: string): Date | null {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match;
  const offset = zone === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction.slice(0, 4)}${offset}`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  // Refuse dates the Date constructor silently rolled over (2026-02-30).
  const utcCheck = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (utcCheck.getUTCDate() !== Number(d) || utcCheck.getUTCMonth() + 1 !== Number(mo)) return null;
  return date;
}

function optTime(rec: Rec, key: string, ctx: Ctx): Date | null {
  const value = rec[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') fail(child(ctx, key), 'is not a date-time string');
  const date = parsePrintifyTime(value);
  if (!date) fail(child(ctx, key), 'is not a YYYY-MM-DD HH:MM:SS+00:00 date-time');
  return date;
}

function reqTime(rec: Rec, key: string, ctx: Ctx): Date {
  const date = optTime(rec, key, ctx);
  if (!date) fail(child(ctx, key), 'is missing');
  return date;
}

/** Printify ids: 24-hex order ids, numeric shop/provider ids. */
function textId(rec: Rec, key: string, ctx: Ctx, required: boolean): string | null {
  const value = rec[key];
  if (value === undefined || value === null || value === '') {
    if (required) fail(child(ctx, key), 'is missing');
    return null;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(value.trim())) return value.trim();
  return fail(child(ctx, key), 'is not an id');
}

/** A numeric id (normalised like Etsy's) or, failing that, an id-like text. */
function optLooseId(rec: Rec, key: string, ctx: Ctx): string | null {
  const value = rec[key];
  if (typeof value === 'number' || (typeof value === 'string' && /^\s*\d{1,19}\s*$/.test(value)))
    return optId(rec, key, ctx);
  return textId(rec, key, ctx, false);
}

function idList(rec: Rec, key: string, ctx: Ctx): string[] {
  return optArray(rec, key, ctx).map((item, i) => {
    const at = child(child(ctx, key), i);
    if (typeof item === 'number' && Number.isSafeInteger(item)) return String(item);
    if (typeof item === 'string' && item.trim() !== '') return item.trim();
    return fail(at, 'is not an id');
  });
}

export function mapPrintifyShop(payload: unknown, ctx: Ctx = root()): PrintifyShop {
  const rec = asRecord(payload, ctx);
  const title = optString(rec, 'title', ctx);
  if (title === null) fail(child(ctx, 'title'), 'is missing');
  return {
    id: textId(rec, 'id', ctx, true) as string,
    title: decodeHtmlEntities(title),
    salesChannel: (optString(rec, 'sales_channel', ctx) ?? 'disconnected').trim().toLowerCase(),
  };
}

/** `GET /v1/shops.json`: a bare array. */
export function mapPrintifyShops(payload: unknown): MappedList<PrintifyShop> {
  const ctx = root();
  if (!Array.isArray(payload)) fail(ctx, 'is not an array of shops');
  return mapEach(payload, ctx, 'id', mapPrintifyShop);
}

function mapAddress(value: unknown, ctx: Ctx): PrintifyAddress {
  if (value === undefined || value === null)
    return { firstName: null, lastName: null, country: null, region: null, city: null, zip: null };
  const rec = asRecord(value, ctx);
  return {
    firstName: optString(rec, 'first_name', ctx),
    lastName: optString(rec, 'last_name', ctx),
    country: optString(rec, 'country', ctx),
    region: optString(rec, 'region', ctx),
    city: optString(rec, 'city', ctx),
    zip: optString(rec, 'zip', ctx),
  };
}

function mapLineItem(item: unknown, ctx: Ctx, currency: CurrencyCode, inexact: string[]): PrintifyLineItem {
  const rec = asRecord(item, ctx);
  const metadataValue = rec.metadata;
  const metadata =
    metadataValue === undefined || metadataValue === null ? {} : asRecord(metadataValue, child(ctx, 'metadata'));
  const metaCtx = child(ctx, 'metadata');
  const money = (key: string) => {
    if (rec[key] === undefined || rec[key] === null) fail(child(ctx, key), 'is missing');
    return centsToMoney(rec[key], child(ctx, key), currency, inexact);
  };
  const sku = optString(metadata, 'sku', metaCtx);
  const title = optString(metadata, 'title', metaCtx);
  return {
    productId: textId(rec, 'product_id', ctx, false),
    variantId: textId(rec, 'variant_id', ctx, false),
    quantity: reqInt(rec, 'quantity', ctx),
    printProviderId: textId(rec, 'print_provider_id', ctx, false),
    cost: money('cost'),
    shippingCost: money('shipping_cost'),
    status: optString(rec, 'status', ctx),
    title: title === null ? null : decodeHtmlEntities(title),
    variantLabel: optString(metadata, 'variant_label', metaCtx),
    sku: sku === null || sku.trim() === '' ? null : sku.trim(),
    retailPrice:
      metadata.price === undefined || metadata.price === null
        ? null
        : centsToMoney(metadata.price, child(metaCtx, 'price'), currency, inexact),
    externalId: optString(rec, 'external_id', ctx) ?? optString(metadata, 'external_id', metaCtx),
    sentToProductionAt: optTime(rec, 'sent_to_production_at', ctx),
    fulfilledAt: optTime(rec, 'fulfilled_at', ctx),
  };
}

function mapShipment(item: unknown, ctx: Ctx): PrintifyShipment {
  const rec = asRecord(item, ctx);
  return {
    carrier: optString(rec, 'carrier', ctx),
    trackingNumber: optString(rec, 'number', ctx),
    url: optString(rec, 'url', ctx),
    deliveredAt: optTime(rec, 'delivered_at', ctx),
  };
}

export function mapPrintifyOrder(payload: unknown, currency: CurrencyCode, ctx: Ctx = root()): PrintifyOrder {
  const rec = asRecord(payload, ctx);
  const inexact: string[] = [];
  const metadataValue = rec.metadata;
  const metaCtx = child(ctx, 'metadata');
  const metadata = metadataValue === undefined || metadataValue === null ? {} : asRecord(metadataValue, metaCtx);
  const money = (key: string) => {
    if (rec[key] === undefined || rec[key] === null) fail(child(ctx, key), 'is missing');
    return centsToMoney(rec[key], child(ctx, key), currency, inexact);
  };
  const status = optString(rec, 'status', ctx);
  if (status === null || status.trim() === '') fail(child(ctx, 'status'), 'is missing');
  const list = <T>(key: string, map: (item: unknown, at: Ctx) => T): T[] =>
    optArray(rec, key, ctx).map((item, i) => map(item, child(child(ctx, key), i)));
  return {
    id: textId(rec, 'id', ctx, true) as string,
    appOrderId: optString(rec, 'app_order_id', ctx),
    status: status.trim(),
    orderType: optString(metadata, 'order_type', metaCtx)?.trim().toLowerCase() || null,
    shopOrderId: optLooseId(metadata, 'shop_order_id', metaCtx),
    shopOrderLabel: optString(metadata, 'shop_order_label', metaCtx),
    shopFulfilledAt: optTime(metadata, 'shop_fulfilled_at', metaCtx),
    isReprint: optBool(metadata, 'is_reprint', metaCtx, false),
    reprintedOrderIds: idList(metadata, 'reprinted_order_ids', metaCtx),
    childReprintedOrderIds: idList(metadata, 'child_reprinted_order_ids', metaCtx),
    currency,
    totalPrice: money('total_price'),
    totalShipping: money('total_shipping'),
    totalTax: money('total_tax'),
    shippingMethod: optInt(rec, 'shipping_method', ctx),
    isPrintifyExpress: optBool(rec, 'is_printify_express', ctx, false),
    isEconomyShipping: optBool(rec, 'is_economy_shipping', ctx, false),
    createdAt: reqTime(rec, 'created_at', ctx),
    sentToProductionAt: optTime(rec, 'sent_to_production_at', ctx),
    fulfilledAt: optTime(rec, 'fulfilled_at', ctx),
    addressTo: mapAddress(rec.address_to, child(ctx, 'address_to')),
    lineItems: list('line_items', (item, at) => mapLineItem(item, at, currency, inexact)),
    shipments: list('shipments', mapShipment),
    inexactAmounts: inexact,
  };
}

export interface PrintifyOrderPage extends MappedList<PrintifyOrder> {
  currentPage: number;
  lastPage: number | null;
  total: number | null;
  /**
   * Whether to fetch `currentPage + 1`. Stop rules, in order: an empty `data` page stops; a
   * `current_page` behind the requested page stops (the server clamped it); a known
   * `last_page` stops at it; else a `next_page_url` key, when present, must be non-null; else
   * a full page (`per_page`, default 10) means there may be more.
   */
  hasNextPage: boolean;
}

function optPositiveInt(rec: Rec, key: string, ctx: Ctx): number | null {
  const value = rec[key];
  if (value === undefined || value === null || value === '') return null;
  const n = intFrom(value, child(ctx, key));
  return n >= 0 ? n : null;
}

/** The paginated orders envelope, read defensively (docs show only `current_page` and `data`). */
export function mapPrintifyOrderPage(
  payload: unknown,
  currency: CurrencyCode,
  requestedPage: number,
): PrintifyOrderPage {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  const data = reqArray(rec, 'data', ctx);
  const currentPage = optPositiveInt(rec, 'current_page', ctx) ?? requestedPage;
  const lastPage = optPositiveInt(rec, 'last_page', ctx);
  const total = optPositiveInt(rec, 'total', ctx);
  const perPage = optPositiveInt(rec, 'per_page', ctx) || 10;
  let hasNextPage: boolean;
  if (data.length === 0 || currentPage < requestedPage) hasNextPage = false;
  else if (lastPage !== null) hasNextPage = currentPage < lastPage;
  else if ('next_page_url' in rec) hasNextPage = rec.next_page_url !== null && rec.next_page_url !== '';
  else hasNextPage = data.length >= perPage;
  const mapped = mapEach(data, child(ctx, 'data'), 'id', (item, at) => mapPrintifyOrder(item, currency, at));
  return { ...mapped, currentPage, lastPage, total, hasNextPage };
}
