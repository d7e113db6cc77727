import { mutate } from 'swr';

export type QueryValue = string | number | boolean | null | undefined;

/**
 * The one way to build an SWR key: the path plus every filter, in a stable order.
 * Empty filters are left out, so `{page: 1, q: ''}` and `{page: 1}` share a key.
 */
export function apiKey(path: string, params?: Record<string, QueryValue>): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value === undefined || value === null || value === '') continue;
    search.append(name, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** Revalidates every cached key whose path starts with `prefix` (e.g. "/api/orders"). */
export function revalidatePrefix(prefix: string) {
  return mutate((key) => typeof key === 'string' && key.startsWith(prefix));
}

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
} as const;
