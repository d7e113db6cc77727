import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, fingerprint, noteRequest, pathOf, queryOf } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { printifyOrderJson } from './order-json';

/** Printify's documented error shape; the 401/403/429 bodies themselves are UNCONFIRMED. */
function error(reply: FastifyReply, code: number, message: string): FastifyReply {
  return reply.code(code).send({ status: 'error', code, message });
}

/** The documented maximum (and default) page size of the orders list (integrations.md b.4, b.7). */
export const PRINTIFY_MAX_ORDERS_PER_PAGE = 10;

/**
 * `limit` on the orders list: 1 to the documented maximum of 10. Outside that the sandbox answers
 * the documented validation error (b.6, code 8103 with a JSON-encoded field map in `reason`)
 * rather than quietly serving 10, so a client that asks for more cannot mistake a short page for
 * the last one. UNCONFIRMED: the HTTP status and wording Printify uses for this case.
 */
function orderPageSize(raw: string | undefined): number | string {
  if (raw === undefined || raw === '') return PRINTIFY_MAX_ORDERS_PER_PAGE;
  const value = Number(raw);
  if (/^\d+$/.test(raw) && value >= 1 && value <= PRINTIFY_MAX_ORDERS_PER_PAGE) return value;
  return `The limit must be an integer from 1 to ${PRINTIFY_MAX_ORDERS_PER_PAGE}.`;
}

function validationError(reply: FastifyReply, field: string, problem: string): FastifyReply {
  return reply.code(400).send({ status: 'error', code: 8103, message: 'Validation failed.', errors: { reason: JSON.stringify({ [field]: [problem] }), code: 8103 } });
}

/** Fault knobs, User-Agent, bearer token and the per-account rate limit. Null when answered. */
function guardPrintify(state: SandboxState, request: FastifyRequest, reply: FastifyReply): Tenant | null {
  const header = request.headers.authorization ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
  const credential = token ? state.tenants.printifyCredential(token) : undefined;
  noteRequest(request, credential?.tenantId ?? null, token ? `printify-token:${fingerprint(token)}` : null);
  state.scheduledMutations.onRequest(state, 'printify', pathOf(request), credential?.tenantId ?? null);
  const fault = state.faults.take('printify', pathOf(request), credential?.tenantId ?? null);
  if (fault && applyFault(fault, request, reply)) return null;
  if (!request.headers['user-agent']) {
    error(reply, 400, 'The User-Agent header is required.');
    return null;
  }
  const tenant = credential && !credential.expired ? state.tenants.get(credential.tenantId) : undefined;
  if (!tenant) {
    error(reply, 401, 'Unauthenticated.');
    return null;
  }
  if (request.sandboxLog) request.sandboxLog.credential = `printify-account:${tenant.printifyAccountId} token:${fingerprint(token as string)}`;
  // 600 requests a minute per merchant account: all of the account's tokens share it.
  const limit = state.printifyLimiter.hit(`printify-account:${tenant.printifyAccountId}`, state.nowMs());
  if (!limit.allowed) {
    reply.header('retry-after', String(limit.retryAfterSeconds ?? 1));
    error(reply, 429, 'Too Many Attempts.');
    return null;
  }
  return tenant;
}

function shopOf(tenant: Tenant, shopId: string): boolean {
  return /^\d+$/.test(shopId) && tenant.printifyShops.some((s) => s.id === Number(shopId));
}

export function registerPrintify(app: FastifyInstance, state: SandboxState): void {
  app.get('/v1/shops.json', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    return tenant.printifyShops;
  });

  app.get('/v1/shops/:shop_id/orders.json', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const { shop_id } = request.params as { shop_id: string };
    if (!shopOf(tenant, shop_id)) return error(reply, 404, 'Shop not found.');
    const query = queryOf(request);
    const perPage = orderPageSize(query.limit);
    if (typeof perPage === 'string') return validationError(reply, 'limit', perPage);
    const pageNo = Number.isInteger(Number(query.page)) && Number(query.page) >= 1 ? Number(query.page) : 1;
    // Only the shop connected to Etsy has orders; the others are empty.
    const matching: number[] = [];
    if (Number(shop_id) === tenant.printifyShopId) {
      const index = tenant.printifyIndex();
      for (let k = 0; k < index.refs.length; k++) {
        if (query.status !== undefined && index.status[k] !== query.status) continue;
        if (query.sku !== undefined && !index.skus[k].includes(query.sku)) continue;
        matching.push(k);
      }
    }
    const total = matching.length;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const slice = matching.slice((pageNo - 1) * perPage, pageNo * perPage);
    const index = tenant.printifyIndex();
    const data = slice.map((k) => printifyOrderJson(tenant, tenant.printifyRef(index.refs[k])));
    // The docs' orders examples show only these two fields (b.4): a client must stop on an empty page.
    if (tenant.settings.printifyEnvelope === 'minimal') return { current_page: pageNo, data };
    const from = slice.length > 0 ? (pageNo - 1) * perPage + 1 : null;
    return {
      current_page: pageNo,
      data,
      first_page_url: '/?page=1',
      from,
      last_page: lastPage,
      last_page_url: `/?page=${lastPage}`,
      next_page_url: pageNo < lastPage ? `/?page=${pageNo + 1}` : null,
      path: '/',
      per_page: perPage,
      prev_page_url: pageNo > 1 ? `/?page=${pageNo - 1}` : null,
      to: from === null ? null : from + slice.length - 1,
      total,
    };
  });

  app.get('/v1/shops/:shop_id/orders/:order_file', async (request, reply) => {
    const tenant = guardPrintify(state, request, reply);
    if (!tenant) return reply;
    const { shop_id, order_file } = request.params as { shop_id: string; order_file: string };
    if (!shopOf(tenant, shop_id)) return error(reply, 404, 'Shop not found.');
    const orderId = order_file.endsWith('.json') ? order_file.slice(0, -5) : null;
    const index = tenant.printifyIndex();
    const position = orderId !== null && Number(shop_id) === tenant.printifyShopId ? index.byId.get(orderId) : undefined;
    if (position === undefined) return error(reply, 404, 'Order not found.');
    return printifyOrderJson(tenant, tenant.printifyRef(index.refs[position]));
  });
}
