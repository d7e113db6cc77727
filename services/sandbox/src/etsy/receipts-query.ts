import { FLAG_CANCELED, FLAG_DELIVERED, FLAG_PAID, FLAG_SHIPPED, type Tenant } from '../data/tenant';
import type { Query } from '../core/http';
import { boolParam, epochParam, paging, ParamError } from './params';

const SORT_ORDERS: Record<string, 'asc' | 'desc'> = {
  asc: 'asc',
  ascending: 'asc',
  up: 'asc',
  desc: 'desc',
  descending: 'desc',
  down: 'desc',
};

export interface ReceiptPage {
  count: number;
  indices: number[];
}

/**
 * getShopReceipts over the tenant's compact columns: every documented filter, sort_on and
 * sort_order with their aliases, limit 1–100 and offset up to 12000; count is all matches.
 */
export function queryReceipts(tenant: Tenant, query: Query): ReceiptPage {
  const { limit, offset } = paging(query);
  const sortOn = query.sort_on ?? 'created';
  if (!['created', 'updated', 'receipt_id'].includes(sortOn))
    throw new ParamError('sort_on must be one of created, updated, receipt_id.');
  const direction = SORT_ORDERS[query.sort_order ?? 'desc'];
  if (!direction) throw new ParamError('sort_order must be one of asc, ascending, desc, descending, up, down.');
  const minCreated = epochParam(query, 'min_created');
  const maxCreated = epochParam(query, 'max_created');
  const minModified = epochParam(query, 'min_last_modified');
  const maxModified = epochParam(query, 'max_last_modified');
  const flagFilters: Array<[number, boolean]> = [];
  for (const [name, flag] of [
    ['was_paid', FLAG_PAID],
    ['was_shipped', FLAG_SHIPPED],
    ['was_delivered', FLAG_DELIVERED],
    ['was_canceled', FLAG_CANCELED],
  ] as const) {
    const value = boolParam(query, name);
    if (value !== undefined) flagFilters.push([flag, value]);
  }
  boolParam(query, 'legacy');

  const { created, updated, flags } = tenant;
  const matches = (i: number): boolean => {
    const c = created[i];
    if (minCreated !== undefined && c < minCreated) return false;
    if (maxCreated !== undefined && c > maxCreated) return false;
    const u = updated[i];
    if (minModified !== undefined && u < minModified) return false;
    if (maxModified !== undefined && u > maxModified) return false;
    for (const [flag, wanted] of flagFilters) if (((flags[i] & flag) !== 0) !== wanted) return false;
    return true;
  };

  const indices: number[] = [];
  let count = 0;
  const visit = (i: number) => {
    if (!matches(i)) return;
    if (count >= offset && indices.length < limit) indices.push(i);
    count++;
  };
  if (sortOn === 'updated') {
    const order = byUpdated(tenant);
    if (direction === 'asc') for (let k = 0; k < order.length; k++) visit(order[k]);
    else for (let k = order.length - 1; k >= 0; k--) visit(order[k]);
  } else {
    // Creation time and receipt id both rise with the index: narrow by min/max_created first.
    const lo = minCreated === undefined ? 0 : lowerBound(created, tenant.count, minCreated);
    const hi = maxCreated === undefined ? tenant.count : lowerBound(created, tenant.count, maxCreated + 1);
    if (direction === 'asc') for (let i = lo; i < hi; i++) visit(i);
    else for (let i = hi - 1; i >= lo; i--) visit(i);
  }
  return { count, indices };
}

function lowerBound(values: Float64Array, length: number, target: number): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Order indices sorted by (updated, receipt id). */
function byUpdated(tenant: Tenant): Uint32Array {
  return tenant.derive('byUpdated', () => {
    const order = new Uint32Array(tenant.count);
    for (let i = 0; i < order.length; i++) order[i] = i;
    const { updated } = tenant;
    return order.sort((a, b) => updated[a] - updated[b] || a - b);
  });
}
