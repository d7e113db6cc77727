import type { CurrencyCode, Money } from '@pod/domain';

/**
 * Printify records as the rest of PodProfit sees them. Amounts are minor units of the
 * currency the caller names (the payload has none; default USD), times are Dates, ids are
 * strings. Field meanings: shared/docs/integrations.md §b.
 */

/** A Printify personal access token and the non-secret id of its merchant account (the rate-limit scope). */
export interface PrintifyAuth {
  token: string;
  /** All tokens of one account share 600 requests/min; its hash is the limiter scope. */
  accountKey: string;
}

export interface PrintifyShop {
  id: string;
  title: string;
  /** Lower-cased ("etsy", "shopify", "disconnected"…). */
  salesChannel: string;
}

export interface PrintifyAddress {
  firstName: string | null;
  lastName: string | null;
  country: string | null;
  region: string | null;
  city: string | null;
  zip: string | null;
}

export interface PrintifyLineItem {
  productId: string | null;
  variantId: string | null;
  quantity: number;
  printProviderId: string | null;
  /** Production cost (per unit or per line is unconfirmed: see integrations.md b.4). */
  cost: Money;
  shippingCost: Money;
  /** As sent: statuses mix hyphens and underscores, so they are opaque. */
  status: string | null;
  title: string | null;
  variantLabel: string | null;
  sku: string | null;
  /** metadata.price: the retail price. */
  retailPrice: Money | null;
  externalId: string | null;
  sentToProductionAt: Date | null;
  fulfilledAt: Date | null;
}

export interface PrintifyShipment {
  carrier: string | null;
  trackingNumber: string | null;
  url: string | null;
  deliveredAt: Date | null;
}

export interface PrintifyOrder {
  id: string;
  appOrderId: string | null;
  /** As sent (`on-hold`, `sending_to_production_delegate`…). */
  status: string;
  /** metadata.order_type lower-cased: "external" (from a sales channel), "manual", "sample", "api". */
  orderType: string | null;
  /** metadata.shop_order_id as text: for an Etsy shop, the Etsy receipt id. */
  shopOrderId: string | null;
  shopOrderLabel: string | null;
  shopFulfilledAt: Date | null;
  isReprint: boolean;
  reprintedOrderIds: string[];
  childReprintedOrderIds: string[];
  currency: CurrencyCode;
  totalPrice: Money;
  totalShipping: Money;
  totalTax: Money;
  /** 1 standard, 2 priority, 3 Printify Express, 4 economy. */
  shippingMethod: number | null;
  isPrintifyExpress: boolean;
  isEconomyShipping: boolean;
  createdAt: Date;
  sentToProductionAt: Date | null;
  fulfilledAt: Date | null;
  addressTo: PrintifyAddress;
  lineItems: PrintifyLineItem[];
  shipments: PrintifyShipment[];
  /** Paths of amounts that could not be converted exactly (only for currencies without two decimals). */
  inexactAmounts: string[];
}

export interface PrintifyOrderQuery {
  /** 1-based. */
  page: number;
  status?: string;
  sku?: string;
}
