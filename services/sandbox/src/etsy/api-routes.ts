import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { queryOf } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { guardEtsy, type EtsyAuth } from './guard';
import { ledgerEntryJson, positionOfEntry, tenantLedger } from './ledger';
import { epochParam, idListParam, intParam, paging, ParamError } from './params';
import { paymentJson } from './payment-json';
import { receiptJson, transactionJson } from './receipt-json';
import { queryReceipts } from './receipts-query';
import { shopJson } from './shop-json';

type Params = Record<string, string>;
type Handler = (call: { tenant: Tenant; request: FastifyRequest; params: Params }) => unknown;

/** The 31-day rule of the ledger endpoint, word for word as Etsy answers it. */
export const LEDGER_WINDOW_ERROR =
  'Time window between min_created and max_created must be no more than 2678400 seconds (31 days).';

export function registerEtsyApi(app: FastifyInstance, state: SandboxState): void {
  const route = (path: string, auth: EtsyAuth, handler: Handler) => {
    app.get(`/v3/application${path}`, async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as Params;
      const call = guardEtsy(state, request, reply, auth, params.shop_id);
      if (!call) return reply;
      try {
        if (params.shop_id !== undefined) {
          const shop = ownShop(state, call.tenant, params.shop_id, auth.kind === 'oauth');
          if ('status' in shop) return reply.code(shop.status).send({ error: shop.error });
          return handler({ tenant: shop, request, params });
        }
        return handler({ tenant: call.tenant as Tenant, request, params });
      } catch (error) {
        if (error instanceof ParamError) return reply.code(400).send({ error: error.message });
        if (error instanceof NotFound) return reply.code(404).send({ error: error.message });
        throw error;
      }
    });
  };
  const oauth = (scope: string): EtsyAuth => ({ kind: 'oauth', scope });
  const key: EtsyAuth = { kind: 'key' };

  app.get('/v3/application/openapi-ping', async (request, reply) => {
    if (!guardEtsy(state, request, reply, key)) return reply;
    return { application_id: 1_000_000 + (hashText(state.options.etsyApp.keystring) % 9_000_000) };
  });
  route('/users/me', oauth('shops_r'), ({ tenant }) => ({ user_id: tenant.shop.userId, shop_id: tenant.shop.shopId }));
  app.get('/v3/application/users/:user_id/shops', async (request, reply) => {
    if (!guardEtsy(state, request, reply, key)) return reply;
    const tenant = state.tenants.byUserId(Number((request.params as Params).user_id));
    if (!tenant)
      return reply
        .code(404)
        .send({ error: `Could not find a shop for user_id = ${(request.params as Params).user_id}` });
    return shopJson(tenant);
  });
  app.get('/v3/application/shops', async (request, reply) => {
    if (!guardEtsy(state, request, reply, key)) return reply;
    const query = queryOf(request);
    try {
      const { limit, offset } = paging(query);
      const name = (query.shop_name ?? '').toLowerCase();
      const found = state.tenants.list().filter((t) => name !== '' && t.shop.shopName.toLowerCase().includes(name));
      return { count: found.length, results: found.slice(offset, offset + limit).map(shopJson) };
    } catch (error) {
      if (error instanceof ParamError) return reply.code(400).send({ error: error.message });
      throw error;
    }
  });
  route('/shops/:shop_id', key, ({ tenant }) => shopJson(tenant));

  route('/shops/:shop_id/receipts', oauth('transactions_r'), ({ tenant, request }) => {
    const page = queryReceipts(tenant, queryOf(request));
    return { count: page.count, results: page.indices.map((i) => receiptJson(tenant.shop, tenant.order(i))) };
  });
  route('/shops/:shop_id/receipts/:receipt_id', oauth('transactions_r'), ({ tenant, params }) =>
    receiptJson(tenant.shop, findOrder(tenant, params.receipt_id)),
  );
  route('/shops/:shop_id/receipts/:receipt_id/transactions', oauth('transactions_r'), ({ tenant, params }) => {
    const order = findOrder(tenant, params.receipt_id);
    return { count: order.lines.length, results: order.lines.map((line) => transactionJson(tenant.shop, order, line)) };
  });
  route('/shops/:shop_id/transactions/:transaction_id', oauth('transactions_r'), ({ tenant, params }) => {
    const offset = Number(params.transaction_id) - tenant.shop.transactionBase;
    const index = Math.floor(offset / 8);
    const order =
      /^\d+$/.test(params.transaction_id) && index >= 0 && index < tenant.count ? tenant.order(index) : null;
    const line = order?.lines.find((l) => l.transactionId === Number(params.transaction_id));
    if (!order || !line)
      throw new NotFound(`Could not find a transaction with transaction_id = ${params.transaction_id}`);
    return transactionJson(tenant.shop, order, line);
  });
  route('/shops/:shop_id/transactions', oauth('transactions_r'), ({ tenant, request }) => {
    const { limit, offset } = paging(queryOf(request));
    const results: unknown[] = [];
    let seen = 0;
    for (let i = tenant.count - 1; i >= 0 && results.length < limit; i--) {
      const order = tenant.order(i);
      for (const line of order.lines) {
        if (seen++ >= offset && results.length < limit) results.push(transactionJson(tenant.shop, order, line));
      }
    }
    return { count: lineCount(tenant), results };
  });

  route('/shops/:shop_id/receipts/:receipt_id/payments', oauth('transactions_r'), ({ tenant, params }) => {
    const order = findOrder(tenant, params.receipt_id);
    // No payment exists for a receipt whose payment has not arrived (a.6: be ready for an empty result).
    return order.paidTs === null ? { count: 0, results: [] } : { count: 1, results: [paymentJson(tenant.shop, order)] };
  });
  route('/shops/:shop_id/payments', oauth('transactions_r'), ({ tenant, request }) => {
    const ids = idListParam(queryOf(request), 'payment_ids');
    const results = ids
      .map((id) => id - tenant.shop.paymentBase)
      .filter((index) => index >= 0 && index < tenant.count && tenant.order(index).paidTs !== null)
      .map((index) => paymentJson(tenant.shop, tenant.order(index)));
    return { count: results.length, results };
  });
  route('/shops/:shop_id/payment-account/ledger-entries', oauth('transactions_r'), ({ tenant, request }) => {
    const query = queryOf(request);
    const min = epochParam(query, 'min_created');
    const max = epochParam(query, 'max_created');
    if (min === undefined) throw new ParamError('min_created is required.');
    if (max === undefined) throw new ParamError('max_created is required.');
    if (max - min > 2_678_400) throw new ParamError(LEDGER_WINDOW_ERROR);
    const { limit, offset } = {
      limit: intParam(query, 'limit', 25, 1, 100),
      offset: intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    };
    const ledger = tenantLedger(tenant);
    // Newest first (UNCONFIRMED: Etsy's order of ledger entries).
    const inWindow: number[] = [];
    for (let position = ledger.created.length - 1; position >= 0; position--) {
      const ts = ledger.created[position];
      if (ts < min) break;
      if (ts <= max) inWindow.push(position);
    }
    return {
      count: inWindow.length,
      results: inWindow.slice(offset, offset + limit).map((position) => ledgerEntryJson(tenant, ledger, position)),
    };
  });
  route('/shops/:shop_id/payment-account/ledger-entries/payments', oauth('transactions_r'), ({ tenant, request }) => {
    const ids = idListParam(queryOf(request), 'ledger_entry_ids');
    const ledger = tenantLedger(tenant);
    const results = ids
      .map((id) => positionOfEntry(tenant, ledger, id))
      .filter((position) => position >= 0 && ledger.refType[position] === 'shop_payment')
      .map((position) => paymentJson(tenant.shop, tenant.order(ledger.orderIndex[position])));
    return { count: results.length, results };
  });
  route('/shops/:shop_id/payment-account/ledger-entries/:entry_id', oauth('transactions_r'), ({ tenant, params }) => {
    const ledger = tenantLedger(tenant);
    const position = /^\d+$/.test(params.entry_id) ? positionOfEntry(tenant, ledger, Number(params.entry_id)) : -1;
    if (position < 0) throw new NotFound(`Could not find a ledger entry with ledger_entry_id = ${params.entry_id}`);
    return ledgerEntryJson(tenant, ledger, position);
  });
}

class NotFound extends Error {}

/** The path's shop, checked against the token's user for OAuth calls. */
function ownShop(
  state: SandboxState,
  caller: Tenant | null,
  shopId: string,
  needsOwner: boolean,
): Tenant | { status: number; error: string } {
  if (!/^\d+$/.test(shopId)) return { status: 400, error: 'Invalid value for shop_id: expected an integer.' };
  const tenant = state.tenants.byShopId(Number(shopId));
  if (!tenant) return { status: 404, error: `Could not find a shop with shop_id = ${shopId}` };
  // UNCONFIRMED: Etsy's wording when a token reads another seller's shop.
  if (needsOwner && caller?.id !== tenant.id)
    return { status: 403, error: 'The authenticated user does not own this shop.' };
  return tenant;
}

function findOrder(tenant: Tenant, receiptId: string) {
  const index = /^\d+$/.test(receiptId) ? tenant.indexOfReceipt(Number(receiptId)) : -1;
  if (index < 0) throw new NotFound(`Could not find a receipt with receipt_id = ${receiptId}`);
  return tenant.order(index);
}

function lineCount(tenant: Tenant): number {
  return tenant.derive('lineCount', () => {
    let n = 0;
    for (let i = 0; i < tenant.count; i++) n += tenant.order(i).lines.length;
    return n;
  });
}

function hashText(text: string): number {
  let h = 7;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) >>> 0;
  return h;
}
