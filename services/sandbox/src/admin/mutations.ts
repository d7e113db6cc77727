import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxState } from '../core/state';
import type { OrderOverride } from '../data/order-generator';
import type { Tenant } from '../data/tenant';
import { BadInput, objectBody, optionalBoolean, optionalEnum, optionalInt } from './validate';

type Admin = <T>(handler: (request: FastifyRequest, reply: FastifyReply) => T) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * POST /__sandbox/tenants/:id/mutations — changes at the head, for incremental-sync tests:
 * `insert` new orders (created now, or at createdTimestamp; `unpaid: true` for receipts whose
 * payment has not arrived), and `update` existing ones (by receiptIds or the newest `count`):
 * touch, pay, ship, cancel or refund, all at updatedTimestamp.
 */
export function registerMutations(app: FastifyInstance, state: SandboxState, admin: Admin, tenantOr404: (request: FastifyRequest, reply: FastifyReply) => Tenant | null): void {
  app.post('/__sandbox/tenants/:id/mutations', admin((request, reply) => {
    const tenant = tenantOr404(request, reply);
    if (!tenant) return reply;
    const body = objectBody(request.body);
    const now = state.nowSeconds();
    const insert = optionalInt(body, 'insert', 0, 10_000) ?? 0;
    const unpaid = optionalBoolean(body, 'unpaid') ?? false;
    const inserted = insert > 0 ? tenant.insertOrders(insert, optionalInt(body, 'createdTimestamp', 946_684_800, 4_102_444_800) ?? now, unpaid) : [];
    const updated: number[] = [];
    if (body.update !== undefined) {
      const update = objectBody(body.update);
      const change = optionalEnum(update, 'change', ['touch', 'pay', 'ship', 'cancel', 'refund'] as const) ?? 'touch';
      const ts = optionalInt(update, 'updatedTimestamp', 946_684_800, 4_102_444_800) ?? now;
      const indices = pickOrders(tenant, update.receiptIds, optionalInt(update, 'count', 1, 100_000));
      for (const index of indices) {
        const order = tenant.order(index);
        const override: OrderOverride = { updatedTs: ts };
        // Shipping an unpaid order takes its payment first (a no-op for paid ones).
        if (change === 'pay' || change === 'ship') override.paidTs = ts;
        if (change === 'ship') override.shippedTs = ts;
        if (change === 'cancel') override.canceledTs = ts;
        if (change === 'refund') override.refund = { ts, amount: Math.round(order.grandTotal / 4), full: false, reason: 'Account Adjustment' };
        updated.push(tenant.updateOrder(index, override).receiptId);
      }
    }
    return { inserted, updated, orders: tenant.count };
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
