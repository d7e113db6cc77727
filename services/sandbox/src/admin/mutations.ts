import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxState } from '../core/state';
import type { OrderOverride } from '../data/order-generator';
import type { Tenant } from '../data/tenant';
import { hasOrderSubscribers, NO_ORDER, orderFacts, publishOrderChange, type OrderFacts } from '../webhooks/order-events';
import { BadInput, objectBody, optionalBoolean, optionalEnum, optionalInt } from './validate';

type Admin = <T>(handler: (request: FastifyRequest, reply: FastifyReply) => T) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * POST /__sandbox/tenants/:id/mutations — changes at the head, for incremental-sync tests:
 * `insert` new orders (created now, or at createdTimestamp; `unpaid: true` for receipts whose
 * payment has not arrived; `printify: true` for orders that reach Printify as soon as they are
 * paid), and `update` existing ones (by receiptIds or the newest `count`): touch, pay, ship,
 * deliver, cancel or refund, all at updatedTimestamp. Every change an Etsy or Printify webhook
 * subscription of the tenant wants is delivered (`deliveries` counts those started).
 */
export function registerMutations(app: FastifyInstance, state: SandboxState, admin: Admin, tenantOr404: (request: FastifyRequest, reply: FastifyReply) => Tenant | null): void {
  app.post('/__sandbox/tenants/:id/mutations', admin((request, reply) => {
    const tenant = tenantOr404(request, reply);
    if (!tenant) return reply;
    const body = objectBody(request.body);
    const now = state.nowSeconds();
    const insert = optionalInt(body, 'insert', 0, 10_000) ?? 0;
    const unpaid = optionalBoolean(body, 'unpaid') ?? false;
    const printify = optionalBoolean(body, 'printify') ?? false;
    // Each touched order's state before this request (an inserted one did not exist), for webhooks.
    const watched = hasOrderSubscribers(state, tenant);
    const before = new Map<number, OrderFacts>();
    const firstNew = tenant.count;
    const inserted = insert > 0 ? tenant.insertOrders(insert, optionalInt(body, 'createdTimestamp', 946_684_800, 4_102_444_800) ?? now, unpaid, printify) : [];
    if (watched) for (let index = firstNew; index < tenant.count; index++) before.set(index, NO_ORDER);
    const updated: number[] = [];
    if (body.update !== undefined) {
      const update = objectBody(body.update);
      const change = optionalEnum(update, 'change', ['touch', 'pay', 'ship', 'deliver', 'cancel', 'refund'] as const) ?? 'touch';
      const ts = optionalInt(update, 'updatedTimestamp', 946_684_800, 4_102_444_800) ?? now;
      const indices = pickOrders(tenant, update.receiptIds, optionalInt(update, 'count', 1, 100_000));
      for (const index of indices) {
        if (watched && !before.has(index)) before.set(index, orderFacts(tenant, index));
        const order = tenant.order(index);
        const override: OrderOverride = { updatedTs: ts };
        // Shipping an unpaid order takes its payment first, delivering ships first (no-ops when done).
        if (change === 'pay' || change === 'ship' || change === 'deliver') override.paidTs = ts;
        if (change === 'ship' || change === 'deliver') override.shippedTs = ts;
        if (change === 'deliver') override.deliveredTs = ts;
        if (change === 'cancel') override.canceledTs = ts;
        if (change === 'refund') override.refund = { ts, amount: Math.round(order.grandTotal / 4), full: false, reason: 'Account Adjustment' };
        updated.push(tenant.updateOrder(index, override).receiptId);
      }
    }
    let deliveries = 0;
    for (const [index, facts] of before) deliveries += publishOrderChange(state, tenant, index, facts);
    return { inserted, updated, orders: tenant.count, deliveries };
  }));
}

function pickOrders(tenant: Tenant, receiptIds: unknown, count: number | undefined): number[] {
  if (receiptIds !== undefined) {
    if (!Array.isArray(receiptIds) || receiptIds.some((id) => typeof id !== 'number')) throw new BadInput('update.receiptIds must be an array of numbers');
    return (receiptIds as number[]).map((id) => {
      const index = tenant.indexOfReceipt(id);
      if (index < 0) throw new BadInput(`no receipt ${id}`);
      return index;
    });
  }
  const n = Math.min(count ?? 1, tenant.count);
  return Array.from({ length: n }, (_, k) => tenant.count - 1 - k);
}
