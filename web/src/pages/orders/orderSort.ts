import type { OrdersSortDirection, OrdersSortKey } from '@pod/contracts';

/** The Orders list's order, as the URL (`?sort=profit&dir=asc`) and GET /api/orders carry it. */
export interface OrdersSort {
  key: OrdersSortKey;
  dir: OrdersSortDirection;
}

export const DEFAULT_ORDERS_SORT: OrdersSort = { key: 'date', dir: 'desc' };

const SORT_KEYS: readonly OrdersSortKey[] = ['date', 'revenue', 'cost', 'profit', 'margin'];

export const SORT_LABELS: Record<OrdersSortKey, string> = {
  date: 'Date',
  revenue: 'Revenue',
  cost: 'Cost',
  profit: 'Profit',
  margin: 'Margin',
};

/** The sort a URL asks for; anything the API would refuse falls back to newest first. */
export function sortFromQuery(query: URLSearchParams): OrdersSort {
  const key = SORT_KEYS.find((candidate) => candidate === query.get('sort'));
  if (!key) return DEFAULT_ORDERS_SORT;
  const dir = query.get('dir') === 'asc' ? 'asc' : 'desc';
  return { key, dir };
}

/** The URL's query with `sort` in it (left out when it is the default, so plain /orders stays plain). */
export function withSort(query: URLSearchParams, sort: OrdersSort): URLSearchParams {
  const next = new URLSearchParams(query);
  const isDefault = sort.key === DEFAULT_ORDERS_SORT.key && sort.dir === DEFAULT_ORDERS_SORT.dir;
  if (isDefault) {
    next.delete('sort');
    next.delete('dir');
  } else {
    next.set('sort', sort.key);
    next.set('dir', sort.dir);
  }
  return next;
}

/** A header pressed: the same column turns around; another starts largest (newest) first. */
export function toggledSort(current: OrdersSort, key: OrdersSortKey): OrdersSort {
  if (current.key === key) return { key, dir: current.dir === 'desc' ? 'asc' : 'desc' };
  return { key, dir: 'desc' };
}

/** "Profit, highest first": what the select and the header buttons say. */
export function sortText(sort: OrdersSort): string {
  if (sort.key === 'date') return `Date, ${sort.dir === 'desc' ? 'newest' : 'oldest'} first`;
  return `${SORT_LABELS[sort.key]}, ${sort.dir === 'desc' ? 'highest' : 'lowest'} first`;
}

export const SORT_OPTIONS: readonly OrdersSort[] = SORT_KEYS.flatMap((key) => [
  { key, dir: 'desc' as const },
  { key, dir: 'asc' as const },
]);
