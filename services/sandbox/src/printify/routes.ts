import type { FastifyInstance } from 'fastify';
import { queryOf } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { error, guardPrintify, validationError } from './guard';
import { printifyOrderJson } from './order-json';
import { registerPrintifyWebhooks } from './webhook-routes';

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

function shopOf(tenant: Tenant, shopId: string): boolean {
  return /^\d+$/.test(shopId) && tenant.printifyShops.some((s) => s.id === Number(shopId));
}

export function registerPrintify(app: FastifyInstance, state: SandboxState): void {
  registerPrintifyWebhooks(app, state);

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
    const position =
      orderId !== null && Number(shop_id) === tenant.printifyShopId ? index.byId.get(orderId) : undefined;
    if (position === undefined) return error(reply, 404, 'Order not found.');
    return printifyOrderJson(tenant, tenant.printifyRef(index.refs[position]));
  });
}
