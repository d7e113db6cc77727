// Shapes of the gateway's answers used by the web app.

export type CurrencyCode = 'USD' | 'EUR' | 'GBP';

export interface CurrentUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  currency: CurrencyCode;
  /** A "Try the demo" account: sample data from the sandbox, removed after 24 hours. */
  isDemo: boolean;
}

export interface PublicConfig {
  supportEmail: string;
  demoEnabled: boolean;
}

/** GET /api/demo/sandbox (demo mode): the visitor's own sandbox seller. */
export interface DemoSandbox {
  shopName: string;
  /** A sandbox value the visitor may paste to reconnect Printify. */
  printifyToken: string;
  printifyShops: PrintifyShop[];
}

export interface AuthResponse {
  user: CurrentUser;
}

export interface RegisterInput {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
}

export interface LoginInput {
  email: string;
  password: string;
}

export type ConnectionState = 'connected' | 'reauth_required' | 'expired';

export interface EtsyConnectionStatus {
  connected: boolean;
  status: ConnectionState | null;
  needsReconnect: boolean;
  shopName: string | null;
  shopId: string | null;
  shopCurrency: string | null;
  lastSync: string | null;
  connectedAt: string | null;
}

export interface PrintifyConnectionStatus {
  connected: boolean;
  status: ConnectionState | null;
  needsReconnect: boolean;
  shopTitle: string | null;
  shopId: string | null;
  salesChannel: string | null;
  syncFrom: string | null;
  lastSync: string | null;
  connectedAt: string | null;
  tokenExpiresAt: string | null;
  tokenExpiresSoon: boolean;
}

/** GET /api/connections/status. `mode` is "sandbox" in demo mode. */
export interface ConnectionsStatus {
  mode: 'live' | 'sandbox';
  etsy: EtsyConnectionStatus;
  printify: PrintifyConnectionStatus;
}

/** A Printify shop as the server lists it. */
export interface PrintifyShop {
  id: number | string;
  title: string;
  sales_channel: string;
}

export interface ConnectPrintifyInput {
  token: string;
  shopId: number | string;
  syncFromDate?: string;
}

export type ConnectableService = 'etsy' | 'printify';
