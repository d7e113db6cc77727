import type { ShopCurrency } from './catalog';
import { generateOrder, type OrderModel, type OrderOverride } from './order-generator';
import { generateSample, sampleCount, type SampleOrder } from './samples';
import { buildShopProfile, type ShopProfile } from './shop-profile';
import { Timeline } from './timeline';
import { Rng } from '../core/random';

export interface TenantSettings {
  seed: string;
  shopCurrency: ShopCurrency;
  months: number;
  ordersPerMonth: number;
  printifyShops: number;
  /** "Now" when the tenant was created (epoch s): the history ends here. */
  asOf: number;
  /**
   * The Printify orders envelope: 'full' (every documented paginator field) or 'minimal'
   * (only `current_page` and `data`, as the docs' orders examples show, integrations.md b.4).
   */
  printifyEnvelope: PrintifyEnvelope;
  /**
   * How Printify's line `cost` reads for a multi-quantity line (integrations.md b.4/b.8 leave it
   * open): 'per_unit' (the default) or 'per_line' (already multiplied by `quantity`).
   */
  printifyLineCost: PrintifyLineCost;
  /** The seller's sales over the last 365 days (whole USD), which set the Offsite Ads rate; drawn from the seed when absent. */
  salesLast365Usd?: number;
  /** The payment account's currency when it is not the listing currency (a UK seller listing in USD: GBP). */
  paymentCurrency?: ShopCurrency;
  /** A VAT-registered seller (UK or EU): its prices include VAT (see ShopProfile.vatRegistered). */
  vatRegistered?: boolean;
  /** The root seed of the sandbox's ECB series, which a ledger in another currency converts with. */
  rateSeed?: string;
}

export type PrintifyEnvelope = 'full' | 'minimal';
export type PrintifyLineCost = 'per_unit' | 'per_line';

export interface PrintifyShop {
  id: number;
  title: string;
  sales_channel: string;
}

export const FLAG_PAID = 1;
export const FLAG_SHIPPED = 2;
export const FLAG_CANCELED = 4;
export const FLAG_DELIVERED = 8;

/** A Printify order in the list: the order of a receipt, its reprint, the second part of a split, or a sample. */
export type PrintifyRef =
  { kind: 'order' | 'reprint' | 'split'; order: OrderModel } | { kind: 'sample'; sample: SampleOrder };

interface PrintifyIndex {
  /** Entry codes, newest first: order index × 4 + (0 order, 1 reprint, 2 sample, 3 split part). */
  refs: Int32Array;
  status: string[];
  skus: string[][];
  byId: Map<string, number>;
}

const CACHE_LIMIT = 4000;

/**
 * One isolated seller: an Etsy user and shop and a Printify account. Only compact columns are
 * kept per order (times, receipt id, flags); a full order is rebuilt from (seed, index) when a
 * page needs it, so 100k orders cost a few megabytes.
 */
export class Tenant {
  readonly shop: ShopProfile;
  readonly timeline: Timeline;
  readonly baseCount: number;
  readonly samples: number;
  readonly printifyAccountId: number;
  readonly printifyShops: PrintifyShop[];
  count = 0;
  created: Float64Array;
  updated: Float64Array;
  receiptIds: Float64Array;
  flags: Uint8Array;
  /** Bumped by every mutation; derived views (sorted permutations, the ledger) check it. */
  version = 0;
  private readonly overrides = new Map<number, OrderOverride>();
  private readonly orderAsOf = new Map<number, number>();
  private readonly cache = new Map<number, OrderModel>();
  private readonly derived = new Map<string, { version: number; value: unknown }>();

  constructor(
    readonly id: string,
    readonly settings: TenantSettings,
    readonly ordinal: number,
  ) {
    this.shop = buildShopProfile(settings.seed, settings.shopCurrency, settings.asOf, ordinal, {
      salesLast365Usd: settings.salesLast365Usd,
      paymentCurrency: settings.paymentCurrency,
      vatRegistered: settings.vatRegistered,
    });
    this.baseCount = Math.max(0, Math.round(settings.months * settings.ordersPerMonth));
    this.timeline = new Timeline(settings.seed, settings.asOf, settings.months, Math.max(1, this.baseCount));
    this.samples = sampleCount(this.baseCount);
    const rng = Rng.of(settings.seed, 'printify-account', ordinal);
    this.printifyAccountId = 1_000_000 + ordinal * 100 + rng.int(0, 99);
    const channels = ['etsy', 'disconnected', 'shopify', 'disconnected'];
    const titles = [this.shop.shopName, `${this.shop.shopName} (old store)`, 'My Shopify Store', 'Test Store'];
    this.printifyShops = Array.from({ length: Math.max(1, settings.printifyShops) }, (_, i) => ({
      id: 10_000_000 + ordinal * 100 + i * 10 + rng.int(0, 9),
      title: titles[i % titles.length],
      sales_channel: channels[i % channels.length],
    }));
    const capacity = this.baseCount + 64;
    this.created = new Float64Array(capacity);
    this.updated = new Float64Array(capacity);
    this.receiptIds = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    const printify = newPrintifyBuilder();
    for (let i = 0; i < this.baseCount; i++) {
      const order = generateOrder(this.shop, i, this.timeline.createdAt(i), settings.asOf);
      this.record(order);
      collectPrintify(printify, order);
    }
    this.derived.set('printify', { version: 0, value: this.finishPrintify(printify) });
  }

  get printifyShopId(): number {
    return this.printifyShops[0].id;
  }

  order(index: number): OrderModel {
    const hit = this.cache.get(index);
    if (hit) return hit;
    const order = generateOrder(
      this.shop,
      index,
      this.created[index],
      this.orderAsOf.get(index) ?? this.settings.asOf,
      this.overrides.get(index),
    );
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(index, order);
    return order;
  }

  /** Index of a receipt id, or -1 (receipt ids rise with the index). */
  indexOfReceipt(receiptId: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = this.receiptIds[mid];
      if (value === receiptId) return mid;
      if (value < receiptId) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  sample(index: number): SampleOrder {
    return generateSample(this.shop, index, this.samples, this.timeline.start, this.settings.asOf);
  }

  /** A view computed from the orders, rebuilt after a mutation. */
  derive<T>(key: string, build: () => T): T {
    const hit = this.derived.get(key);
    if (hit && hit.version === this.version) return hit.value as T;
    const value = build();
    this.derived.set(key, { version: this.version, value });
    return value;
  }

  printifyIndex(): PrintifyIndex {
    return this.derive('printify', () => {
      const builder = newPrintifyBuilder();
      for (let i = 0; i < this.count; i++) collectPrintify(builder, this.order(i));
      return this.finishPrintify(builder);
    });
  }

  printifyRef(code: number): PrintifyRef {
    const index = code >> 2;
    const kind = code & 3;
    if (kind === 2) return { kind: 'sample', sample: this.sample(index) };
    return { kind: kind === 1 ? 'reprint' : kind === 3 ? 'split' : 'order', order: this.order(index) };
  }

  /**
   * Adds orders at the head (newest), created at `createdTs` or later. `printify`: their Printify
   * order exists as soon as they are paid (otherwise inserted orders never reach Printify).
   */
  insertOrders(howMany: number, createdTs: number, unpaid = false, printify = false): number[] {
    const ids: number[] = [];
    for (let k = 0; k < howMany; k++) {
      const index = this.count;
      const ts = Math.max(createdTs, index > 0 ? this.created[index - 1] : 0);
      this.ensureCapacity(index + 1);
      this.orderAsOf.set(index, ts);
      this.created[index] = ts;
      this.overrides.set(index, printify ? { unpaid, printifyCreatedTs: ts } : { unpaid });
      const order = generateOrder(this.shop, index, ts, ts, this.overrides.get(index));
      this.record(order);
      ids.push(order.receiptId);
    }
    this.touch();
    return ids;
  }

  updateOrder(index: number, change: OrderOverride): OrderModel {
    this.overrides.set(index, { ...this.overrides.get(index), ...change });
    this.cache.delete(index);
    this.touch();
    const order = this.order(index);
    this.writeColumns(index, order);
    return order;
  }

  private touch(): void {
    this.version++;
  }

  private record(order: OrderModel): void {
    this.ensureCapacity(order.index + 1);
    this.writeColumns(order.index, order);
    this.count = Math.max(this.count, order.index + 1);
  }

  private writeColumns(index: number, order: OrderModel): void {
    this.created[index] = order.createdTs;
    this.updated[index] = order.updatedTs;
    this.receiptIds[index] = order.receiptId;
    const asOf = this.orderAsOf.get(index) ?? this.settings.asOf;
    this.flags[index] =
      (order.paidTs !== null ? FLAG_PAID : 0) |
      (order.shippedTs !== null ? FLAG_SHIPPED : 0) |
      (order.canceledTs !== null ? FLAG_CANCELED : 0) |
      (order.shippedTs !== null &&
      (order.deliveredTs !== null || order.shippedTs + 6 * 86_400 <= asOf) &&
      !order.lines.every((l) => l.isDigital)
        ? FLAG_DELIVERED
        : 0);
  }

  private ensureCapacity(size: number): void {
    if (size <= this.created.length) return;
    const grow = (old: Float64Array) => {
      const next = new Float64Array(Math.max(size, old.length * 2));
      next.set(old);
      return next;
    };
    this.created = grow(this.created);
    this.updated = grow(this.updated);
    this.receiptIds = grow(this.receiptIds);
    const flags = new Uint8Array(this.created.length);
    flags.set(this.flags);
    this.flags = flags;
  }

  private finishPrintify(builder: PrintifyBuilder): PrintifyIndex {
    for (let j = 0; j < this.samples; j++) {
      const sample = this.sample(j);
      if (sample.createdTs > this.settings.asOf) continue;
      builder.push(
        sample.createdTs,
        j * 4 + 2,
        sample.status,
        sample.lines.map((l) => l.listing.variants[l.variantIndex].sku),
        sample.orderId,
      );
    }
    const order = Array.from({ length: builder.created.length }, (_, i) => i);
    order.sort((a, b) => builder.created[b] - builder.created[a] || builder.refs[b] - builder.refs[a]);
    const byId = new Map<string, number>();
    order.forEach((from, to) => byId.set(builder.ids[from], to));
    return {
      refs: Int32Array.from(order, (i) => builder.refs[i]),
      status: order.map((i) => builder.status[i]),
      skus: order.map((i) => builder.skus[i]),
      byId,
    };
  }
}

interface PrintifyBuilder {
  created: number[];
  refs: number[];
  status: string[];
  skus: string[][];
  ids: string[];
  push(created: number, ref: number, status: string, skus: string[], id: string): void;
}

function newPrintifyBuilder(): PrintifyBuilder {
  const b: PrintifyBuilder = {
    created: [],
    refs: [],
    status: [],
    skus: [],
    ids: [],
    push(created, ref, status, skus, id) {
      b.created.push(created);
      b.refs.push(ref);
      b.status.push(status);
      b.skus.push(skus);
      b.ids.push(id);
    },
  };
  return b;
}

function collectPrintify(builder: PrintifyBuilder, order: OrderModel): void {
  const plan = order.printify;
  if (!plan) return;
  const skus = order.lines.filter((l) => !l.isDigital).map((l) => l.listing.variants[l.variantIndex].sku);
  const split = plan.split?.fromLine ?? skus.length;
  builder.push(plan.createdTs, order.index * 4, plan.status, skus.slice(0, split), plan.orderId);
  if (plan.split)
    // The second part reaches Printify a minute after the first.
    builder.push(plan.createdTs + 60, order.index * 4 + 3, plan.status, skus.slice(split), plan.split.orderId);
  if (plan.reprint)
    builder.push(
      plan.reprint.createdTs,
      order.index * 4 + 1,
      plan.reprint.status,
      skus.slice(0, 1),
      plan.reprint.orderId,
    );
}
