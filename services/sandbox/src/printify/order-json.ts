import type { OrderModel } from '../data/order-generator';
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
        order_type: 'sample',
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
  const id = reprint ? reprint.orderId : plan.orderId;
  const status = reprint ? reprint.status : plan.status;
  const createdTs = reprint ? reprint.createdTs : plan.createdTs;
  const sentTs = reprint ? reprint.createdTs + 3600 : plan.sentTs;
  const fulfilledTs = reprint ? reprint.fulfilledTs : plan.fulfilledTs;
  const physical = order.lines.filter((l) => !l.isDigital);
  const lines = physical.map((l) => {
    const variant = l.listing.variants[l.variantIndex];
    const pay = charged(tenant, status, l.printifyCost, l.quantity, l.printifyShipping);
    return lineJson(
      l.listing.printifyProductId,
      variant.printifyVariantId,
      l.quantity,
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
  const metadata: Record<string, unknown> = {
    order_type: reprint ? 'manual' : plan.kind === 'manual' ? 'manual' : 'external',
  };
  if (!reprint && plan.kind === 'linked') {
    // A share send the id as a string, as the docs' cancel example does (b.4).
    metadata.shop_order_id = plan.shopOrderIdAsText ? String(order.receiptId) : order.receiptId;
    metadata.shop_order_label = String(order.receiptId);
  }
  metadata.shop_fulfilled_at = !reprint && plan.kind !== 'manual' ? printifyTime(order.shippedTs) : null;
  metadata.is_reprint = reprint !== null;
  metadata.reprinted_order_ids = reprint ? [plan.orderId] : [];
  metadata.child_reprinted_order_ids = !reprint && plan.reprint ? [plan.reprint.orderId] : [];
  return {
    id,
    app_order_id: `${account}.${reprint ? 500_000 + order.index : order.index + 1}`,
    address_to: buyerAddress(order),
    line_items: lines,
    metadata,
    total_price: lines.reduce((sum, l) => sum + l.metadata.price * l.quantity, 0),
    total_shipping: lines.reduce((sum, l) => sum + l.shipping_cost, 0),
    total_tax: status === 'canceled' ? 0 : plan.taxCents,
    status,
    shipping_method: 1,
    is_printify_express: false,
    is_economy_shipping: false,
    shipments:
      fulfilledTs !== null
        ? [
            {
              carrier: order.carrier,
              number: order.trackingCode,
              url: tracking(order.carrier, order.trackingCode),
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
