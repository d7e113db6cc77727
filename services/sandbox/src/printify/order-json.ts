import type { OrderLine, OrderModel } from '../data/order-generator';
import type { PrintifyRef, Tenant } from '../data/tenant';

/** Printify's time format: "YYYY-MM-DD HH:MM:SS+00:00", UTC. */
export function printifyTime(epochSeconds: number | null): string | null {
  if (epochSeconds === null) return null;
  return `${new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace('T', ' ')}+00:00`;
}

const COUNTRY_OF_PROVIDER = 'United States';

function lineStatus(orderStatus: string): string {
  return ['fulfilled', 'canceled', 'on-hold', 'in-production', 'has-issues'].includes(orderStatus)
    ? orderStatus
    : 'on-hold';
}

export function tracking(carrier: string, number: string): string {
  return `https://printify.me/tracking?carrier=${encodeURIComponent(carrier)}&number=${encodeURIComponent(number)}`;
}

/**
 * What an order is charged, in USD cents: `cost` per unit or for the whole line as the tenant's
 * `printifyLineCost` reads it (b.4/b.8 leave it open), `shipping_cost` for the whole line. A
 * canceled order is charged nothing: every cost is 0, as in the docs' cancel example (b.4).
 */
function charged(
  tenant: Tenant,
  status: string,
  unitCost: number,
  quantity: number,
  shipping: number,
): { cost: number; shipping: number } {
  if (status === 'canceled') return { cost: 0, shipping: 0 };
  return { cost: tenant.settings.printifyLineCost === 'per_line' ? unitCost * quantity : unitCost, shipping };
}

/**
 * One Printify Order (integrations.md b.4). Every amount is integer cents of one currency, with
 * no currency field: USD, the currency Printify labels its catalog data in and bills in (b.4:
 * "assumed USD/billing currency"), so retail prices (`metadata.price`, `total_price`) are the
 * Printify product's USD prices, whatever the Etsy shop's currency. Modelling choices where the
 * docs are open: `cost` per the tenant's knob (see charged), `shipping_cost` for the whole line,
 * `total_price` the retail total (metadata.price × quantity).
 */
export function printifyOrderJson(tenant: Tenant, ref: PrintifyRef): Record<string, unknown> {
  const account = tenant.shop.printifyAccountNo;
  if (ref.kind === 'sample') {
    const s = ref.sample;
    const lines = s.lines.map((l) => {
      const variant = l.listing.variants[l.variantIndex];
      const pay = charged(tenant, s.status, l.cost, l.quantity, l.shipping);
      return lineJson(
        l.listing.printifyProductId,
        variant.printifyVariantId,
        l.quantity,
        l.listing.spec.printProviderId ?? 0,
        pay.cost,
        pay.shipping,
        lineStatus(s.status),
        l.listing.spec.title,
        variant.spec.retail.USD,
        variant.spec.label,
        variant.sku,
        s.sentTs,
        s.fulfilledTs,
      );
    });
    return {
      id: s.orderId,
      app_order_id: `${account}.${9000 + s.index}`,
      address_to: sellerAddress(tenant),
      line_items: lines,
      metadata: {
        order_type: s.orderType,
        shop_fulfilled_at: null,
        is_reprint: false,
        reprinted_order_ids: [],
        child_reprinted_order_ids: [],
      },
      total_price: s.lines.reduce((sum, l) => sum + l.listing.variants[l.variantIndex].spec.retail.USD * l.quantity, 0),
      total_shipping: lines.reduce((sum, l) => sum + l.shipping_cost, 0),
      total_tax: 0,
      status: s.status,
      shipping_method: 1,
      is_printify_express: false,
      is_economy_shipping: false,
      shipments:
        s.fulfilledTs !== null
          ? [
              {
                carrier: 'usps',
                number: `9400${s.orderId.slice(0, 12)}`,
                url: tracking('usps', s.orderId),
                delivered_at: null,
              },
            ]
          : [],
      created_at: printifyTime(s.createdTs),
      sent_to_production_at: printifyTime(s.sentTs),
      fulfilled_at: printifyTime(s.fulfilledTs),
      printify_connect: { url: `https://printify.me/${s.orderId.slice(0, 10)}`, id: s.orderId.slice(0, 10) },
    };
  }
  const order = ref.order;
  const plan = order.printify;
  if (!plan) throw new Error('order has no Printify order');
  const reprint = ref.kind === 'reprint' && plan.reprint ? plan.reprint : null;
  const split = ref.kind === 'split' && plan.split ? plan.split : null;
  const id = reprint ? reprint.orderId : split ? split.orderId : plan.orderId;
  const status = reprint ? reprint.status : plan.status;
  const createdTs = reprint ? reprint.createdTs : split ? plan.createdTs + 60 : plan.createdTs;
  const sentTs = reprint ? reprint.createdTs + 3600 : plan.sentTs;
  const fulfilledTs = reprint ? reprint.fulfilledTs : plan.fulfilledTs;
  const items = printifyItems(tenant, order, ref.kind);
  const lines = items.map(({ line: l, quantity, shipping }) => {
    const variant = l.listing.variants[l.variantIndex];
    const pay = charged(tenant, status, l.printifyCost, quantity, shipping);
    return lineJson(
      l.listing.printifyProductId,
      variant.printifyVariantId,
      quantity,
      l.listing.spec.printProviderId ?? 0,
      pay.cost,
      pay.shipping,
      lineStatus(status),
      l.listing.spec.title,
      variant.spec.retail.USD,
      variant.spec.label,
      variant.sku,
      sentTs,
      fulfilledTs,
    );
  });
  // A reprint keeps the original's order_type and receipt link (the docs name no type of its
  // own for reprints: ADR 0024); so does the second part of a split order.
  const metadata: Record<string, unknown> = { order_type: plan.kind === 'manual' ? 'manual' : 'external' };
  if (plan.kind === 'linked') {
    // A share send the id as a string, as the docs' cancel example does (b.4).
    metadata.shop_order_id = plan.shopOrderIdAsText ? String(order.receiptId) : order.receiptId;
    metadata.shop_order_label = String(order.receiptId);
  }
  metadata.shop_fulfilled_at = !reprint && plan.kind !== 'manual' ? printifyTime(order.shippedTs) : null;
  metadata.is_reprint = reprint !== null;
  metadata.reprinted_order_ids = reprint ? [plan.orderId] : [];
  metadata.child_reprinted_order_ids = ref.kind === 'order' && plan.reprint ? [plan.reprint.orderId] : [];
  const vatable = items.reduce((sum, i) => sum + i.line.printifyCost * i.quantity + i.shipping, 0);
  const tax = ref.kind === 'order' && !plan.split ? plan.taxCents : order.place.vat > 0 ? Math.round(vatable * 0.2) : 0;
  // The reprint and the second part travel in their own parcels.
  const trackingNumber = ref.kind === 'order' ? order.trackingCode : otherParcel(order.trackingCode, ref.kind);
  return {
    id,
    app_order_id: `${account}.${reprint ? 500_000 + order.index : split ? 800_000 + order.index : order.index + 1}`,
    address_to: buyerAddress(order),
    line_items: lines,
    metadata,
    total_price: lines.reduce((sum, l) => sum + l.metadata.price * l.quantity, 0),
    total_shipping: lines.reduce((sum, l) => sum + l.shipping_cost, 0),
    total_tax: status === 'canceled' ? 0 : tax,
    status,
    shipping_method: 1,
    is_printify_express: false,
    is_economy_shipping: false,
    shipments:
      fulfilledTs !== null
        ? [
            {
              carrier: order.carrier,
              number: trackingNumber,
              url: tracking(order.carrier, trackingNumber),
              delivered_at: reprint ? null : printifyTime(order.deliveredTs),
            },
          ]
        : [],
    created_at: printifyTime(createdTs),
    sent_to_production_at: printifyTime(sentTs),
    fulfilled_at: printifyTime(fulfilledTs),
    printify_connect: { url: `https://printify.me/${id.slice(0, 10)}`, id: id.slice(0, 10) },
  };
}

interface PrintifyItem {
  line: OrderLine;
  quantity: number;
  /** Printify's shipping for the item in this order (USD cents). */
  shipping: number;
}

/**
 * The physical lines a Printify order of the receipt carries: all of them; with a split, the
 * first part's or the second's; a reprint, one unit of the first line. Each order ships its own
 * parcel, so the first item of the second part and of a reprint pays the first-item rate.
 */
function printifyItems(tenant: Tenant, order: OrderModel, kind: 'order' | 'reprint' | 'split'): PrintifyItem[] {
  const physical = order.lines.filter((l) => !l.isDigital);
  const from = order.printify?.split?.fromLine ?? physical.length;
  const abroad = order.place.country !== tenant.shop.country;
  const parcel = (lines: OrderLine[], quantityOf: (l: OrderLine) => number): PrintifyItem[] =>
    lines.map((line, n) => {
      const quantity = quantityOf(line);
      const rates = line.listing.spec.printifyShipping;
      const first = rates ? (abroad ? rates.firstAbroad : rates.first) : 0;
      const extra = rates ? (abroad ? rates.additionalAbroad : rates.additional) : 0;
      return { line, quantity, shipping: n === 0 ? first + extra * (quantity - 1) : extra * quantity };
    });
  if (kind === 'reprint') return parcel(physical.slice(0, 1), () => 1);
  if (kind === 'split') return parcel(physical.slice(from), (l) => l.quantity);
  return physical.slice(0, from).map((line) => ({ line, quantity: line.quantity, shipping: line.printifyShipping }));
}

function otherParcel(trackingCode: string, kind: 'reprint' | 'split'): string {
  const digits = Number(trackingCode.slice(2, 11));
  return `${trackingCode.slice(0, 2)}${digits + (kind === 'reprint' ? 7 : 1)}${trackingCode.slice(11)}`;
}

function lineJson(
  productId: string,
  variantId: number,
  quantity: number,
  providerId: number,
  cost: number,
  shipping: number,
  status: string,
  title: string,
  price: number,
  label: string,
  sku: string,
  sentTs: number | null,
  fulfilledTs: number | null,
) {
  return {
    product_id: productId,
    variant_id: variantId,
    quantity,
    print_provider_id: providerId,
    cost,
    shipping_cost: shipping,
    status,
    metadata: { title, price, variant_label: label, sku, country: COUNTRY_OF_PROVIDER },
    sent_to_production_at: printifyTime(sentTs),
    fulfilled_at: printifyTime(fulfilledTs),
  };
}

function buyerAddress(order: OrderModel): Record<string, unknown> {
  return {
    first_name: order.buyerFirst,
    last_name: order.buyerLast,
    email: '',
    phone: '',
    country: order.place.country,
    region: order.place.state ?? '',
    address1: order.address1,
    address2: order.address2 ?? '',
    city: order.place.city,
    zip: order.place.zip,
    company: '',
  };
}

function sellerAddress(tenant: Tenant): Record<string, unknown> {
  return {
    first_name: 'Shop',
    last_name: 'Owner',
    email: tenant.shop.sellerEmail,
    phone: '',
    country: tenant.shop.country,
    region: '',
    address1: '1 Studio Lane',
    address2: '',
    city: 'Springfield',
    zip: '00001',
    company: tenant.shop.shopName,
  };
}
