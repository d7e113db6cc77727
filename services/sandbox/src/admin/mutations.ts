import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxState } from '../core/state';
import type { OrderOverride } from '../data/order-generator';
import type { Tenant } from '../data/tenant';
import {
  hasOrderSubscribers,
  NO_ORDER,
  orderFacts,
  publishOrderChange,
  type OrderFacts,
} from '../webhooks/order-events';
import { BadInput, objectBody, optionalBoolean, optionalEnum, optionalInt, optionalString } from './validate';

type Admin = <T>(
  handler: (request: FastifyRequest, reply: FastifyReply) => T,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

type Change = 'touch' | 'pay' | 'ship' | 'deliver' | 'cancel' | 'refund';

/** A validated mutation: what `POST …/mutations` asked for, applied at once or when its trigger fires. */
export interface MutationSpec {
  insert: number;
  /** Null: the second the mutation is applied. */
  createdTimestamp: number | null;
  unpaid: boolean;
  /** Inserted orders reach Printify as soon as they are paid (at once when inserted paid), instead of hours later. */
  printify: boolean;
  update: { receiptIds: number[] | null; count: number | null; change: Change; updatedTimestamp: number | null } | null;
}

/** When a scheduled mutation fires: before the tenant's request number `afterRequests + 1` to `target` (under `pathPrefix`) is answered. */
export interface MutationTrigger {
  target: 'etsy' | 'printify';
  pathPrefix?: string;
  afterRequests: number;
}

export interface MutationResult {
  inserted: number[];
  updated: number[];
  orders: number;
  /** Webhook deliveries the change started (Etsy and Printify subscriptions of the tenant). */
  deliveries: number;
}

interface ScheduledMutation {
  id: number;
  tenantId: string;
  spec: MutationSpec;
  when: MutationTrigger;
  seen: number;
  appliedAtMs: number | null;
  result: MutationResult | null;
}

/**
 * Mutations that wait for a request: tests use them to change the source at an exact point of
 * a paging client's walk ("after the 3rd receipts page, insert 500 orders at the head"), which
 * racing a client from the outside cannot do reliably.
 */
export class MutationSchedule {
  private readonly entries: ScheduledMutation[] = [];
  private nextId = 1;

  add(tenantId: string, spec: MutationSpec, when: MutationTrigger): ScheduledMutation {
    const entry: ScheduledMutation = {
      id: this.nextId++,
      tenantId,
      spec,
      when,
      seen: 0,
      appliedAtMs: null,
      result: null,
    };
    this.entries.push(entry);
    return entry;
  }

  /** Called for each provider request attributed to a tenant, before it is answered: applies every mutation now due. */
  onRequest(state: SandboxState, target: 'etsy' | 'printify', path: string, tenantId: string | null): void {
    if (tenantId === null) return;
    for (const entry of this.entries) {
      if (entry.appliedAtMs !== null || entry.tenantId !== tenantId || entry.when.target !== target) continue;
      if (entry.when.pathPrefix !== undefined && !path.startsWith(entry.when.pathPrefix)) continue;
      entry.seen++;
      if (entry.seen <= entry.when.afterRequests) continue;
      const tenant = state.tenants.get(tenantId);
      if (!tenant) continue;
      entry.appliedAtMs = state.nowMs();
      try {
        entry.result = applyMutation(state, tenant, entry.spec);
      } catch (error) {
        if (!(error instanceof BadInput)) throw error;
        entry.result = { inserted: [], updated: [], orders: tenant.count, deliveries: 0 };
      }
    }
  }

  listFor(tenantId: string): ScheduledMutation[] {
    return this.entries.filter((entry) => entry.tenantId === tenantId);
  }

  dropTenant(tenantId: string): void {
    for (let i = this.entries.length - 1; i >= 0; i--)
      if (this.entries[i].tenantId === tenantId) this.entries.splice(i, 1);
  }
}

export function parseMutation(body: Record<string, unknown>): MutationSpec {
  const spec: MutationSpec = {
    insert: optionalInt(body, 'insert', 0, 10_000) ?? 0,
    createdTimestamp: optionalInt(body, 'createdTimestamp', 946_684_800, 4_102_444_800) ?? null,
    unpaid: optionalBoolean(body, 'unpaid') ?? false,
    printify: optionalBoolean(body, 'printify') ?? false,
    update: null,
  };
  if (body.update !== undefined) {
    const update = objectBody(body.update);
    const receiptIds = update.receiptIds;
    if (receiptIds !== undefined && (!Array.isArray(receiptIds) || receiptIds.some((id) => typeof id !== 'number'))) {
      throw new BadInput('update.receiptIds must be an array of numbers');
    }
    spec.update = {
      receiptIds: receiptIds === undefined ? null : (receiptIds as number[]),
      count: optionalInt(update, 'count', 1, 100_000) ?? null,
      change:
        optionalEnum(update, 'change', ['touch', 'pay', 'ship', 'deliver', 'cancel', 'refund'] as const) ?? 'touch',
      updatedTimestamp: optionalInt(update, 'updatedTimestamp', 946_684_800, 4_102_444_800) ?? null,
    };
  }
  return spec;
}

function parseTrigger(value: unknown): MutationTrigger {
  const when = objectBody(value);
  const target = optionalEnum(when, 'target', ['etsy', 'printify'] as const);
  if (!target) throw new BadInput('when.target is required: etsy or printify');
  const afterRequests = optionalInt(when, 'afterRequests', 0, 1_000_000);
  if (afterRequests === undefined) throw new BadInput('when.afterRequests is required (an integer)');
  return {
    target,
    afterRequests,
    pathPrefix: optionalString(when, 'pathPrefix', /^\/.{0,300}$/, 'a path starting with "/"'),
  };
}

/** Applies a mutation to a tenant now: inserts at the head, then updates (by receipt ids or the newest `count`). */
export function applyMutation(state: SandboxState, tenant: Tenant, spec: MutationSpec): MutationResult {
  const now = state.nowSeconds();
  // Each touched order's state before this mutation (an inserted one did not exist), for webhooks.
  const watched = hasOrderSubscribers(state, tenant);
  const before = new Map<number, OrderFacts>();
  const firstNew = tenant.count;
  const inserted =
    spec.insert > 0 ? tenant.insertOrders(spec.insert, spec.createdTimestamp ?? now, spec.unpaid, spec.printify) : [];
  if (watched) for (let index = firstNew; index < tenant.count; index++) before.set(index, NO_ORDER);
  const updated: number[] = [];
  if (spec.update) {
    const indices = pickOrders(tenant, spec.update.receiptIds, spec.update.count);
    const { change } = spec.update;
    const ts = spec.update.updatedTimestamp ?? now;
    for (const index of indices) {
      if (watched && !before.has(index)) before.set(index, orderFacts(tenant, index));
      const order = tenant.order(index);
      const override: OrderOverride = { updatedTs: ts };
      // Changes happen now and never rewrite what was posted before: one refund or cancellation
      // per order (a refunded or canceled order is only touched), shipping and paying only once.
      const settled = order.refund !== null || order.canceledTs !== null;
      // Shipping an unpaid order takes its payment first, delivering ships first (no-ops when done).
      if (change === 'pay' || change === 'ship' || change === 'deliver') override.paidTs = ts;
      if (change === 'ship' || change === 'deliver') override.shippedTs = ts;
      if (change === 'deliver') override.deliveredTs = ts;
      if (change === 'cancel' && !settled) override.canceledTs = ts;
      if (change === 'refund' && !settled)
        override.refund = { ts, amount: Math.round(order.grandTotal / 4), full: false, reason: 'Account Adjustment' };
      updated.push(tenant.updateOrder(index, override).receiptId);
    }
  }
  let deliveries = 0;
  for (const [index, facts] of before) deliveries += publishOrderChange(state, tenant, index, facts);
  return { inserted, updated, orders: tenant.count, deliveries };
}

/**
 * POST /__sandbox/tenants/:id/mutations — changes at the head, for incremental-sync tests:
 * `insert` new orders (created now, or at createdTimestamp; `unpaid: true` for receipts whose
 * payment has not arrived; `printify: true` for orders that reach Printify as soon as they are
 * paid, at once for paid ones), and `update` existing ones (by receiptIds or the newest `count`):
 * touch, pay, ship, deliver, cancel or refund, all at updatedTimestamp. Every change an Etsy or
 * Printify webhook subscription of the tenant wants is delivered (`deliveries` counts those
 * started). With `when`, the mutation waits for a request of the tenant (see MutationTrigger) and
 * the answer is 202 `{scheduled}`; GET lists the scheduled ones.
 */
export function registerMutations(
  app: FastifyInstance,
  state: SandboxState,
  admin: Admin,
  tenantOr404: (request: FastifyRequest, reply: FastifyReply) => Tenant | null,
): void {
  app.post(
    '/__sandbox/tenants/:id/mutations',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      const body = objectBody(request.body);
      const spec = parseMutation(body);
      // Unknown receipt ids are refused now, not when a scheduled mutation fires.
      if (spec.update?.receiptIds) pickOrders(tenant, spec.update.receiptIds, null);
      if (body.when !== undefined) {
        const entry = state.scheduledMutations.add(tenant.id, spec, parseTrigger(body.when));
        return reply.code(202).send({ scheduled: entry.id });
      }
      return applyMutation(state, tenant, spec);
    }),
  );

  app.get(
    '/__sandbox/tenants/:id/mutations',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      return {
        mutations: state.scheduledMutations.listFor(tenant.id).map((entry) => ({
          id: entry.id,
          when: entry.when,
          seen: entry.seen,
          applied: entry.appliedAtMs !== null,
          appliedAt: entry.appliedAtMs === null ? null : new Date(entry.appliedAtMs).toISOString(),
          appliedAtMs: entry.appliedAtMs,
          ...(entry.result ?? { inserted: [], updated: [], orders: tenant.count }),
        })),
      };
    }),
  );
}

function pickOrders(tenant: Tenant, receiptIds: number[] | null, count: number | null): number[] {
  if (receiptIds !== null) {
    return receiptIds.map((id) => {
      const index = tenant.indexOfReceipt(id);
      if (index < 0) throw new BadInput(`no receipt ${id}`);
      return index;
    });
  }
  const n = Math.min(count ?? 1, tenant.count);
  return Array.from({ length: n }, (_, k) => tenant.count - 1 - k);
}
