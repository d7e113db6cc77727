import type { SandboxState } from '../core/state';
import { FLAG_DELIVERED, type Tenant } from '../data/tenant';
import { printifyTime, tracking } from '../printify/order-json';
import { publishEtsy, publishPrintify } from './dispatch';

/** What the webhooks of one order depend on, before and after a change. */
export interface OrderFacts {
  paid: boolean;
  shipped: boolean;
  canceled: boolean;
  delivered: boolean;
  printify: {
    id: string;
    status: string;
    sent: boolean;
    fulfilledTs: number | null;
    deliveredTs: number | null;
  } | null;
}

/** An order that did not exist yet (an insert's "before"). */
export const NO_ORDER: OrderFacts = { paid: false, shipped: false, canceled: false, delivered: false, printify: null };

export function orderFacts(tenant: Tenant, index: number): OrderFacts {
  const order = tenant.order(index);
  const plan = order.printify;
  return {
    paid: order.paidTs !== null,
    shipped: order.shippedTs !== null,
    canceled: order.canceledTs !== null,
    delivered: (tenant.flags[index] & FLAG_DELIVERED) !== 0,
    printify: plan
      ? {
          id: plan.orderId,
          status: plan.status,
          sent: plan.sentTs !== null,
          fulfilledTs: plan.fulfilledTs,
          deliveredTs: plan.fulfilledTs !== null ? order.deliveredTs : null,
        }
      : null,
  };
}

/** True when a change to the tenant's orders could send anything (so mutations skip the bookkeeping otherwise). */
export function hasOrderSubscribers(state: SandboxState, tenant: Tenant): boolean {
  return state.webhooks.printify.hasAny(tenant.id) || state.webhooks.etsy.forTenant(tenant.id) !== null;
}

/**
 * The events one order's change sends. Etsy: `order.paid`, `order.shipped`, `order.canceled`,
 * `order.delivered` (a.12). Printify, for the shop the order belongs to: `order:created` when its
 * Printify order appears, `order:sent-to-production`, `order:updated` with the new status,
 * `order:shipment:created`, `order:shipment:delivered` (b.5), each with `data.shop_id`.
 * Returns how many deliveries were started.
 */
export function publishOrderChange(state: SandboxState, tenant: Tenant, index: number, before: OrderFacts): number {
  const after = orderFacts(tenant, index);
  const order = tenant.order(index);
  let sent = 0;
  for (const [event, was, is] of [
    ['order.paid', before.paid, after.paid],
    ['order.shipped', before.shipped, after.shipped],
    ['order.canceled', before.canceled, after.canceled],
    ['order.delivered', before.delivered, after.delivered],
  ] as const) {
    if (!was && is) sent += publishEtsy(state, tenant, event, order.receiptId);
  }
  const now = after.printify;
  if (!now) return sent;
  const shopId = tenant.printifyShopId;
  const resource = (data: Record<string, unknown> = {}) => ({
    id: now.id,
    type: 'order',
    data: { shop_id: shopId, ...data },
  });
  const then = before.printify;
  if (!then) return sent + publishPrintify(state, tenant, shopId, 'order:created', resource());
  if (!then.sent && now.sent) sent += publishPrintify(state, tenant, shopId, 'order:sent-to-production', resource());
  if (then.status !== now.status)
    sent += publishPrintify(state, tenant, shopId, 'order:updated', resource({ status: now.status }));
  const shipment = (at: Record<string, string | null>) => ({
    ...at,
    carrier: {
      code: order.carrier,
      tracking_number: order.trackingCode,
      tracking_url: tracking(order.carrier, order.trackingCode),
    },
    skus: order.lines.filter((l) => !l.isDigital).map((l) => l.listing.variants[l.variantIndex].sku),
  });
  if (then.fulfilledTs === null && now.fulfilledTs !== null) {
    sent += publishPrintify(
      state,
      tenant,
      shopId,
      'order:shipment:created',
      resource(shipment({ shipped_at: printifyTime(now.fulfilledTs) })),
    );
  }
  if (then.deliveredTs === null && now.deliveredTs !== null) {
    sent += publishPrintify(
      state,
      tenant,
      shopId,
      'order:shipment:delivered',
      resource(shipment({ delivered_at: printifyTime(now.deliveredTs) })),
    );
  }
  return sent;
}
