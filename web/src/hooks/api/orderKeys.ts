// The order screens' paths. Apart from keys.ts, which is in every visitor's first load: only
// signed-in pages need these.

export const ORDER_API = {
  dashboardMetrics: '/api/dashboard/metrics',
  orders: '/api/orders',
  matchAll: '/api/orders/match',
  matchStatus: '/api/orders/match/status',
  matchingOrders: '/api/matching/orders',
  order: (id: string) => `/api/orders/${encodeURIComponent(id)}`,
  orderCandidates: (id: string) => `/api/orders/${encodeURIComponent(id)}/candidates`,
  orderAction: (id: string, action: 'match' | 'unmatch' | 'archive' | 'restore' | 'remove-printify-order') =>
    `/api/orders/${encodeURIComponent(id)}/${action}`,
} as const;

/** A query key: the path and its query string, parameters left out when undefined. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
