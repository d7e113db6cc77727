import type { CurrencyCode } from '@pod/domain';
import type { Clock } from '../http/clock';
import { InvalidRequestError, PayloadSchemaError } from '../http/errors';
import type { MappedList } from '../payload/read';
import type { ProviderLogger } from '../http/logger';
import {
  createRequester,
  type FetchLike,
  type RatePlan,
  type Requester,
  type RequestMetricsHook,
  type Timeouts,
} from '../http/request';
import type { RetryPolicy } from '../http/retry';
import { bucketForSlidingLimit, scopeKey, type RateLimit, type RateLimiter } from '../rate-limit/limiter';
import { mapPrintifyOrder, mapPrintifyOrderPage, mapPrintifyShops, type PrintifyOrderPage } from './mappers';
import type { PrintifyAuth, PrintifyOrder, PrintifyOrderQuery, PrintifyShop } from './types';
import {
  mapCreatedPrintifyWebhook,
  mapPrintifyWebhooks,
  type PrintifyWebhook,
  type PrintifyWebhookInput,
} from './webhooks';

export interface PrintifyClientConfig {
  /** Default https://api.printify.com (the sandbox's URL in tests). The only host requests go to. */
  apiUrl?: string;
  /** Printify requires a User-Agent on every request. */
  userAgent?: string;
  /** Requests per minute per merchant account (default 600); the bucket stays under it with `jitterMarginMs` to spare (bucketForSlidingLimit). */
  perMinuteLimit?: number;
  /** Time the bucket keeps in hand on every window against calls arriving late relative to one another (default 1.2 s, defaultJitterMarginMs). */
  jitterMarginMs?: number;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  maxBodyBytes?: number;
}

export interface PrintifyClientDeps {
  limiter: RateLimiter;
  logger?: ProviderLogger;
  fetch?: FetchLike;
  clock?: Clock;
  random?: () => number;
  /** Per-attempt and 429 counts for the process's metrics. */
  metrics?: RequestMetricsHook;
}

export const PRINTIFY_DEFAULT_API_URL = 'https://api.printify.com';
export const PRINTIFY_DEFAULT_USER_AGENT = 'PodProfit/1.0 (Node.js)';
/** Orders come 10 to a page (the documented maximum). */
export const PRINTIFY_ORDERS_PAGE_SIZE = 10;

const PATHS = {
  shops: '/v1/shops.json',
  orders: '/v1/shops/{shop_id}/orders.json',
  order: '/v1/shops/{shop_id}/orders/{order_id}.json',
  webhooks: '/v1/shops/{shop_id}/webhooks.json',
  webhook: '/v1/shops/{shop_id}/webhooks/{webhook_id}.json',
} as const;

/** One page of orders; see PrintifyOrderPage.hasNextPage for the stop rules. */
export interface PrintifyOrdersResult extends Omit<PrintifyOrderPage, 'records'> {
  orders: PrintifyOrder[];
}

export interface PrintifyOrdersOptions {
  /** The account's currency for Printify amounts (the payload names none). Default USD. */
  currency?: CurrencyCode;
  /** Lets the caller abandon the call (a worker shutting down); see HttpRequest.signal. */
  signal?: AbortSignal;
}

/**
 * Printify API v1 with a personal access token: shops and orders (read only) and webhook
 * subscriptions (scopes webhooks.read and webhooks.write). All tokens of one merchant account
 * share one bucket (600 in any minute, see bucketForSlidingLimit), keyed by a hash of the
 * caller's `accountKey`, never the token.
 */
export class PrintifyClient {
  private readonly request: Requester;
  private readonly limit: RateLimit;

  constructor(config: PrintifyClientConfig, deps: PrintifyClientDeps) {
    this.limit = bucketForSlidingLimit(config.perMinuteLimit ?? 600, 60, config.jitterMarginMs);
    this.request = createRequester(
      {
        provider: 'printify',
        baseUrl: config.apiUrl ?? PRINTIFY_DEFAULT_API_URL,
        timeouts: config.timeouts,
        retry: config.retry,
        maxBodyBytes: config.maxBodyBytes,
        defaultHeaders: { 'user-agent': config.userAgent ?? PRINTIFY_DEFAULT_USER_AGENT },
      },
      {
        fetch: deps.fetch,
        logger: deps.logger,
        clock: deps.clock,
        random: deps.random,
        limiter: deps.limiter,
        metrics: deps.metrics,
      },
    );
  }

  /** The token's shops; also the way to validate a token (401 → AuthError). */
  async listShops(auth: PrintifyAuth): Promise<PrintifyShop[]> {
    const body = await this.get(auth, PATHS.shops, {});
    const mapped = mapPrintifyShops(body);
    const bad = mapped.rejected[0];
    if (bad) throw new PayloadSchemaError('printify', bad.field, bad.reason);
    return mapped.records;
  }

  /**
   * One page of a shop's orders (10 per page, newest first as far as is known). Read
   * `hasNextPage` to continue; `rejected` lists orders that failed the schema.
   */
  async listOrders(
    auth: PrintifyAuth,
    shopId: string,
    query: PrintifyOrderQuery,
    options: PrintifyOrdersOptions = {},
  ): Promise<PrintifyOrdersResult> {
    if (!Number.isSafeInteger(query.page) || query.page < 1)
      throw new InvalidRequestError('printify', 'printify: page must be a whole number from 1');
    const body = await this.get(
      auth,
      PATHS.orders,
      { shop_id: shopId },
      {
        limit: PRINTIFY_ORDERS_PAGE_SIZE,
        page: query.page,
        status: query.status || undefined,
        sku: query.sku || undefined,
      },
      options.signal,
    );
    const page = mapPrintifyOrderPage(body, options.currency ?? 'USD', query.page);
    return {
      orders: page.records,
      payloads: page.payloads,
      rejected: page.rejected,
      currentPage: page.currentPage,
      lastPage: page.lastPage,
      total: page.total,
      hasNextPage: page.hasNextPage,
    };
  }

  async getOrder(
    auth: PrintifyAuth,
    shopId: string,
    orderId: string,
    options: PrintifyOrdersOptions = {},
  ): Promise<PrintifyOrder> {
    return (await this.getOrderWithPayload(auth, shopId, orderId, options)).order;
  }

  /** One order and its payload as received (a webhook named it). */
  async getOrderWithPayload(
    auth: PrintifyAuth,
    shopId: string,
    orderId: string,
    options: PrintifyOrdersOptions = {},
  ): Promise<{ order: PrintifyOrder; payload: unknown }> {
    if (!/^[A-Za-z0-9]{1,64}$/.test(orderId))
      throw new InvalidRequestError('printify', 'printify: orderId is not an order id');
    const payload = await this.get(
      auth,
      PATHS.order,
      { shop_id: shopId, order_id: orderId },
      undefined,
      options.signal,
    );
    return { order: mapPrintifyOrder(payload, options.currency ?? 'USD'), payload };
  }

  /** The shop's webhook subscriptions (scope webhooks.read); `rejected` lists entries that failed the schema. */
  async listWebhooks(
    auth: PrintifyAuth,
    shopId: string,
  ): Promise<{ webhooks: PrintifyWebhook[]; rejected: MappedList<PrintifyWebhook>['rejected'] }> {
    const mapped = mapPrintifyWebhooks(await this.get(auth, PATHS.webhooks, { shop_id: shopId }));
    return { webhooks: mapped.records, rejected: mapped.rejected };
  }

  /**
   * Subscribes `url` to `topic` on the shop (scope webhooks.write). With a `secret`, Printify
   * signs every delivery with it; the secret never reaches a log line or an error. Not retried
   * unless the request surely did not arrive (a retried create would subscribe twice).
   */
  async createWebhook(auth: PrintifyAuth, shopId: string, input: PrintifyWebhookInput): Promise<PrintifyWebhook> {
    if (!/^https?:\/\/\S+$/.test(input.url))
      throw new InvalidRequestError('printify', 'printify: the webhook URL must be an http(s) URL');
    if (!input.topic) throw new InvalidRequestError('printify', 'printify: the webhook topic is empty');
    const json: Record<string, string> = { topic: input.topic, url: input.url };
    if (input.secret !== undefined) json.secret = input.secret;
    const body = await this.send(
      auth,
      'POST',
      PATHS.webhooks,
      { shop_id: shopId },
      { json, secrets: input.secret ? [input.secret] : [] },
    );
    return mapCreatedPrintifyWebhook(body, input, shopId);
  }

  /**
   * Removes a subscription (scope webhooks.write). Printify wants the webhook URL's host as
   * `host`, which must match it. A subscription already gone answers NotFoundError.
   */
  async deleteWebhook(auth: PrintifyAuth, shopId: string, webhookId: string, host: string): Promise<void> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(webhookId))
      throw new InvalidRequestError('printify', 'printify: webhookId is not a webhook id');
    if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-fA-F:.]+\](:\d{1,5})?$/.test(host))
      throw new InvalidRequestError('printify', 'printify: host is not a host name');
    await this.send(auth, 'DELETE', PATHS.webhook, { shop_id: shopId, webhook_id: webhookId }, { query: { host } });
  }

  private get(
    auth: PrintifyAuth,
    path: string,
    params: Record<string, string>,
    query?: Record<string, string | number | undefined>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return this.send(auth, 'GET', path, params, { query, signal });
  }

  private async send(
    auth: PrintifyAuth,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    params: Record<string, string>,
    options: {
      query?: Record<string, string | number | undefined>;
      json?: unknown;
      secrets?: string[];
      signal?: AbortSignal;
    } = {},
  ): Promise<unknown> {
    if (!auth.token) throw new InvalidRequestError('printify', 'printify: the token is empty');
    if (!auth.accountKey) throw new InvalidRequestError('printify', 'printify: the account key is empty');
    if (params.shop_id !== undefined && !/^\d{1,19}$/.test(params.shop_id))
      throw new InvalidRequestError('printify', 'printify: shopId is not a numeric id');
    const plan: RatePlan = { scope: scopeKey('printify:acct', auth.accountKey), limit: this.limit, kind: 'minute' };
    const response = await this.request({
      method,
      path,
      params,
      query: options.query,
      json: options.json,
      headers: { authorization: `Bearer ${auth.token}` },
      secrets: [auth.token, ...(options.secrets ?? [])],
      rate: plan,
      signal: options.signal,
    });
    return response.body;
  }
}
