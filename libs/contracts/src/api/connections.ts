/** Response shapes of the routes under /api/connections and /api/printify. */
import type { ConnectionStatus } from '../providers';

/** `live`, or `sandbox` in demo mode (both providers are the built-in sandbox). */
export type ProvidersModeName = 'live' | 'sandbox';

export interface EtsyConnectionStatus {
  connected: boolean;
  status: ConnectionStatus | null;
  needsReconnect: boolean;
  shopName: string | null;
  shopId: string | null;
  shopCurrency: string | null;
  /** ISO 8601. */
  lastSync: string | null;
  /** ISO 8601. */
  connectedAt: string | null;
}

export interface PrintifyConnectionStatus {
  connected: boolean;
  status: ConnectionStatus | null;
  needsReconnect: boolean;
  shopTitle: string | null;
  shopId: string | null;
  salesChannel: string | null;
  syncFrom: string | null;
  /** ISO 8601. */
  lastSync: string | null;
  /** ISO 8601. */
  connectedAt: string | null;
  /** ISO 8601; approximate (a personal access token lasts about a year from connecting). */
  tokenExpiresAt: string | null;
  tokenExpiresSoon: boolean;
  /**
   * Printify's webhooks for this connection: `registered` (new orders arrive within moments),
   * `pending` (being set up), `failed` (not made: orders still arrive with the scheduled syncs),
   * or null when this deployment has webhooks off.
   */
  webhookStatus: 'pending' | 'registered' | 'failed' | null;
}

/** GET /api/connections/status: from the database only, no provider call. */
export interface ConnectionsStatus {
  mode: ProvidersModeName;
  etsy: EtsyConnectionStatus;
  printify: PrintifyConnectionStatus;
}

/** A Printify shop as the web app shows it: "title (sales_channel)". */
export interface PrintifyShopView {
  id: number | string;
  title: string;
  sales_channel: string;
}

/** POST /api/connections/printify/validate: the shops the token can see. */
export interface PrintifyTokenShops {
  shops: PrintifyShopView[];
}
