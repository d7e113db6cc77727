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
  disconnectAll: '/api/connections/all',
  disconnect: (service: 'etsy' | 'printify') => `/api/connections/${service}`,
  syncStatus: '/api/sync/status',
  syncStart: (provider: 'etsy' | 'printify') => `/api/sync/${provider}`,
  profitSettings: '/api/profit-settings',
} as const;

/** Key prefixes for revalidating a resource's every key at once (`mutateByPrefix`). */
export const API_PREFIX = {
  connections: '/api/connections/',
  /** Every order list, details and candidates answer, and the dashboard's figures (ORDER_API in orderKeys.ts). */
  orderData: ['/api/orders', '/api/matching/', '/api/dashboard/'],
} as const;
