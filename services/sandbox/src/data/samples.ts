import { Rng, STREAM } from '../core/random';
import type { ShopProfile, Listing } from './shop-profile';

/**
 * A Printify order the seller placed for themself, with no Etsy receipt: a sample (order_type
 * "sample") or, about one in four, stock for a market stall placed by hand ("manual"); about one
 * in six is canceled before production and charged nothing.
 */
export interface SampleOrder {
  index: number;
  orderType: 'sample' | 'manual';
  orderId: string;
  createdTs: number;
  sentTs: number | null;
  fulfilledTs: number | null;
  status: string;
  lines: Array<{ listing: Listing; variantIndex: number; quantity: number; cost: number; shipping: number }>;
}

export function sampleCount(orderCount: number): number {
  return Math.max(1, Math.round(orderCount * 0.008));
}

export function generateSample(
  shop: ShopProfile,
  index: number,
  count: number,
  start: number,
  asOf: number,
): SampleOrder {
  const rng = Rng.mix(shop.seedHash, STREAM.sample, index);
  const createdTs = Math.floor(start + ((index + rng.next()) / count) * (asOf - start));
  const physical = shop.listings.filter((l) => l.spec.kind !== 'digital');
  const lineCount = rng.int(1, 3);
  const lines: SampleOrder['lines'] = [];
  for (let n = 0; n < lineCount; n++) {
    const listing = rng.pick(physical);
    const variantIndex = rng.int(0, listing.variants.length - 1);
    const ps = listing.spec.printifyShipping;
    lines.push({
      listing,
      variantIndex,
      quantity: 1,
      cost: listing.variants[variantIndex].spec.baseCostUsd ?? 0,
      shipping: ps ? (n === 0 ? ps.first : ps.additional) : 0,
    });
  }
  const sentTs = createdTs + rng.int(1800, 12 * 3600);
  const fulfilledTs = sentTs + rng.int(2, 4) * 86_400;
  // Its own stream, so the draws above (and every sample a seed already gave) stay as they were.
  const kind = Rng.mix(shop.seedHash, STREAM.sampleKind, index);
  // Fixed slots besides the draws, so a shop of a few hundred orders has one of each.
  const orderType = index % 5 === 1 || kind.chance(0.1) ? 'manual' : 'sample';
  const canceled = (index % 8 === 3 || kind.chance(0.05)) && createdTs + 1800 <= asOf;
  if (canceled)
    return {
      index,
      orderType,
      orderId: sampleId(shop, index),
      createdTs,
      sentTs: null,
      fulfilledTs: null,
      status: 'canceled',
      lines,
    };
  const status = fulfilledTs <= asOf ? 'fulfilled' : sentTs <= asOf ? 'in-production' : 'pending';
  return {
    index,
    orderType,
    orderId: sampleId(shop, index),
    createdTs,
    sentTs: sentTs <= asOf ? sentTs : null,
    fulfilledTs: fulfilledTs <= asOf ? fulfilledTs : null,
    status,
    lines,
  };
}

function sampleId(shop: ShopProfile, index: number): string {
  return Rng.mix(shop.idHash, STREAM.sample, index).hex(24);
}
