import type { SideRef } from './types';

/**
 * The one order of sides the engine and its diff use: by shop id, then provider id, each by
 * UTF-16 code units. Compared field by field, never through joined key strings: at 100k orders
 * building, hashing and collecting those strings was most of a run.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareSides(aShop: string, aId: string, bShop: string, bId: string): number {
  return compareText(aShop, bShop) || compareText(aId, bId);
}

/** A side-keyed map without joined key strings: shop id, then provider id. */
export class SideMap<T> {
  private readonly byShop = new Map<string, Map<string, T>>();

  get(shopId: string, id: string): T | undefined {
    return this.byShop.get(shopId)?.get(id);
  }

  has(shopId: string, id: string): boolean {
    return this.byShop.get(shopId)?.has(id) ?? false;
  }

  set(shopId: string, id: string, value: T): void {
    let shop = this.byShop.get(shopId);
    if (!shop) this.byShop.set(shopId, (shop = new Map()));
    shop.set(id, value);
  }

  getRef(side: SideRef): T | undefined {
    return this.get(side.shopId, side.id);
  }
}

/**
 * `items` with one item per side (the first in input order), in side order, sorting only when
 * the input is not already in order.
 */
export function sortedUniqueSides<T>(items: readonly T[], shopOf: (item: T) => string, idOf: (item: T) => string): T[] {
  const compare = (a: T, b: T) => compareSides(shopOf(a), idOf(a), shopOf(b), idOf(b));
  let ordered = true;
  for (let i = 1; i < items.length && ordered; i += 1) ordered = compare(items[i - 1], items[i]) <= 0;
  // Array.prototype.sort is stable: among equal sides the first in input order stays first.
  const sorted = ordered ? items : [...items].sort(compare);
  const unique: T[] = [];
  for (const item of sorted)
    if (unique.length === 0 || compare(unique[unique.length - 1], item) !== 0) unique.push(item);
  return unique;
}

/** The position of the side in `sorted` (side order, unique), or -1: a binary search. */
export function indexOfSide<T>(
  sorted: readonly T[],
  shopOf: (item: T) => string,
  idOf: (item: T) => string,
  side: SideRef,
): number {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const order = compareSides(shopOf(sorted[middle]), idOf(sorted[middle]), side.shopId, side.id);
    if (order === 0) return middle;
    if (order < 0) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
