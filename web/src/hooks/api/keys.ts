export const API = {
  currentUser: '/api/auth/user',
  publicConfig: '/api/public/config',
  login: '/api/auth/login',
  register: '/api/auth/register',
  logout: '/api/auth/logout',
  devLogin: '/api/auth/dev-login',
  demoSandbox: '/api/demo/sandbox',
  connectionsStatus: '/api/connections/status',
  etsyOAuth: '/api/connections/etsy/oauth',
  printifyValidate: '/api/connections/printify/validate',
  printifyConnect: '/api/connections/printify',
  printifyShops: '/api/printify/shops',
  disconnectAll: '/api/connections/all',
  disconnect: (service: 'etsy' | 'printify') => `/api/connections/${service}`,
  syncStatus: '/api/sync/status',
  syncStart: (provider: 'etsy' | 'printify') => `/api/sync/${provider}`,
  dashboardMetrics: '/api/dashboard/metrics',
  orders: '/api/orders',
  matchAll: '/api/orders/match',
  matchingOrders: '/api/matching/orders',
  order: (id: string) => `/api/orders/${encodeURIComponent(id)}`,
  orderCandidates: (id: string) => `/api/orders/${encodeURIComponent(id)}/candidates`,
  orderAction: (id: string, action: 'match' | 'unmatch' | 'archive' | 'restore') => `/api/orders/${encodeURIComponent(id)}/${action}`,
} as const;

/** Key prefixes for revalidating a resource's every key at once (`mutateByPrefix`). */
export const API_PREFIX = {
  connections: '/api/connections/',
  /** Every order list, details and candidates answer, and the dashboard's figures. */
  orderData: ['/api/orders', '/api/matching/', '/api/dashboard/'],
} as const;

/** A query key: the path and its query string, parameters left out when undefined. */
export function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
