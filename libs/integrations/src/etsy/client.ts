import { systemClock, type Clock } from '../http/clock';
import { AuthError, InvalidRequestError, PayloadSchemaError, ProviderError, ReauthRequiredError } from '../http/errors';
import type { ProviderLogger } from '../http/logger';
import {
  createRequester,
  type FetchLike,
  type HttpRequest,
  type RatePlan,
  type Requester,
  type RequestMetricsHook,
  type Timeouts,
} from '../http/request';
import type { RetryPolicy } from '../http/retry';
import { bucketForSlidingLimit, scopeKey, type RateLimit, type RateLimiter } from '../rate-limit/limiter';
import {
  mapEtsyLedgerEntries,
  mapEtsyMe,
  mapEtsyPayments,
  mapEtsyReceipt,
  mapEtsyReceipts,
  mapEtsyShop,
  mapEtsyTokenResponse,
} from './mappers';
import { isValidCodeVerifier } from './pkce';
import { etsyRateHeaders } from './rate-headers';
import type {
  EtsyAuth,
  EtsyLedgerEntry,
  EtsyLedgerQuery,
  EtsyMe,
  EtsyPayment,
  EtsyReceipt,
  EtsyReceiptQuery,
  EtsyShop,
  EtsyTokenSet,
} from './types';
import type { RejectedRecord } from '../payload/read';

export interface EtsyClientConfig {
  /** Default https://openapi.etsy.com (the sandbox's URL in tests). The only host requests go to. */
  apiUrl?: string;
  /** Default https://www.etsy.com/oauth/connect. Only used to build the consent URL. */
  connectUrl?: string;
  keystring: string;
  sharedSecret: string;
  redirectUri: string;
  /** The app's queries-per-second limit (default 10); the bucket stays under it with `jitterMarginMs` to spare (bucketForSlidingLimit). */
  perSecondLimit?: number;
  /** Time the bucket keeps in hand on every window against calls arriving late relative to one another (default 75 ms, defaultJitterMarginMs). */
  jitterMarginMs?: number;
  /** How long a connection parks when `x-remaining-today` reaches 0 and Etsy names no time (default 1 h). */
  dailyQuotaPauseMs?: number;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  maxBodyBytes?: number;
}

export interface EtsyClientDeps {
  limiter: RateLimiter;
  logger?: ProviderLogger;
  fetch?: FetchLike;
  clock?: Clock;
  random?: () => number;
  /** Per-attempt and 429 counts for the process's metrics. */
  metrics?: RequestMetricsHook;
}

export const ETSY_DEFAULT_API_URL = 'https://openapi.etsy.com';
export const ETSY_DEFAULT_CONNECT_URL = 'https://www.etsy.com/oauth/connect';
/** The scopes PodProfit asks for: receipts, payments and ledger (transactions_r), getMe and the shop (shops_r). */
export const ETSY_SCOPES = ['transactions_r', 'shops_r'] as const;
/** The ledger refuses wider windows (31 days). */
export const ETSY_MAX_LEDGER_WINDOW_SECONDS = 2_678_400;
export const ETSY_MAX_OFFSET = 12_000;
const ETSY_MIN_TIMESTAMP = 946_684_800;

const PATHS = {
  token: '/v3/public/oauth/token',
  me: '/v3/application/users/me',
  shop: '/v3/application/shops/{shop_id}',
  receipts: '/v3/application/shops/{shop_id}/receipts',
  receipt: '/v3/application/shops/{shop_id}/receipts/{receipt_id}',
  payments: '/v3/application/shops/{shop_id}/receipts/{receipt_id}/payments',
  paymentsById: '/v3/application/shops/{shop_id}/payments',
  ledger: '/v3/application/shops/{shop_id}/payment-account/ledger-entries',
  ledgerPayments: '/v3/application/shops/{shop_id}/payment-account/ledger-entries/payments',
} as const;

/** How many ids one getPayments / ledger-entry-payments call carries (a list in the query string). */
export const ETSY_MAX_IDS_PER_CALL = 100;

export interface EtsyReceiptPage {
  /** Etsy's total of matching receipts (ignores limit/offset). */
  count: number;
  receipts: EtsyReceipt[];
  /** Each receipt as received (`payloads[i]` is `receipts[i]`'s), kept beside the mapped columns. */
  payloads: unknown[];
  /** Records that failed the schema, for the worker's quarantine. */
  rejected: RejectedRecord[];
}

export interface EtsyLedgerPage {
  count: number;
  entries: EtsyLedgerEntry[];
  payloads: unknown[];
  rejected: RejectedRecord[];
}

export interface EtsyPaymentList {
  payments: EtsyPayment[];
  payloads: unknown[];
  rejected: RejectedRecord[];
}

/** Per call: `signal` lets the caller abandon it (a worker shutting down); see HttpRequest.signal. */
export interface CallOptions {
  signal?: AbortSignal;
}

/**
 * Etsy Open API v3 for one app: OAuth (PKCE), the shop, receipts, payments and the ledger.
 * Every request carries `x-api-key: keystring:shared_secret`, spends a token of the
 * connection's shared per-second bucket, stops while the connection's daily quota is spent,
 * and reads Etsy's rate headers to slow down when Etsy says so.
 */
export class EtsyClient {
  private readonly request: Requester;
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  private readonly apiUrl: string;
  private readonly connectUrl: URL;
  private readonly limit: RateLimit;
  private readonly perSecondLimit: number;
  private readonly dailyQuotaPauseMs: number;

  constructor(
    private readonly config: EtsyClientConfig,
    deps: EtsyClientDeps,
  ) {
    if (!config.keystring || !config.sharedSecret)
      throw new Error('EtsyClient needs the keystring and the shared secret');
    this.apiUrl = config.apiUrl ?? ETSY_DEFAULT_API_URL;
    this.connectUrl = new URL(config.connectUrl ?? ETSY_DEFAULT_CONNECT_URL);
    this.clock = deps.clock ?? systemClock;
    this.limiter = deps.limiter;
    this.perSecondLimit = config.perSecondLimit ?? 10;
    this.limit = bucketForSlidingLimit(this.perSecondLimit, 1, config.jitterMarginMs);
    this.dailyQuotaPauseMs = config.dailyQuotaPauseMs ?? 3_600_000;
    const apiKey = `${config.keystring}:${config.sharedSecret}`;
    this.request = createRequester(
      {
        provider: 'etsy',
        baseUrl: this.apiUrl,
        timeouts: config.timeouts,
        retry: config.retry,
        maxBodyBytes: config.maxBodyBytes,
        defaultHeaders: { 'x-api-key': apiKey },
        secrets: [config.sharedSecret, apiKey],
      },
      {
        fetch: deps.fetch,
        logger: deps.logger,
        clock: this.clock,
        random: deps.random,
        limiter: deps.limiter,
        metrics: deps.metrics,
      },
    );
  }

  /** The consent URL to send the seller to (step 1 of a.3). */
  authorizationUrl(input: { state: string; codeChallenge: string }): string {
    if (!input.state) throw new InvalidRequestError('etsy', 'etsy: an OAuth state is required');
    if (!/^[A-Za-z0-9_-]{43}$/.test(input.codeChallenge))
      throw new InvalidRequestError('etsy', 'etsy: the code challenge is not an S256 challenge');
    const params: [string, string][] = [
      ['response_type', 'code'],
      ['client_id', this.config.keystring],
      ['redirect_uri', this.config.redirectUri],
      ['scope', ETSY_SCOPES.join(' ')],
      ['state', input.state],
      ['code_challenge', input.codeChallenge],
      ['code_challenge_method', 'S256'],
    ];
    // encodeURIComponent, not URLSearchParams: scopes are joined by %20, as Etsy documents, not "+".
    const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    return `${this.connectUrl.origin}${this.connectUrl.pathname}?${query}`;
  }

  /** Step 3: the authorization code for tokens. `invalid_grant` (used or expired code) → ReauthRequiredError. */
  async exchangeCode(input: { code: string; codeVerifier: string }): Promise<EtsyTokenSet> {
    if (!input.code) throw new InvalidRequestError('etsy', 'etsy: the authorization code is empty');
    if (!isValidCodeVerifier(input.codeVerifier))
      throw new InvalidRequestError('etsy', 'etsy: the code verifier is malformed');
    return this.token(
      {
        grant_type: 'authorization_code',
        client_id: this.config.keystring,
        redirect_uri: this.config.redirectUri,
        code: input.code,
        code_verifier: input.codeVerifier,
      },
      [input.code, input.codeVerifier],
    );
  }

  /** A new token set; the refresh token rotates, so the caller must store the new one. */
  async refreshTokens(refreshToken: string): Promise<EtsyTokenSet> {
    if (!refreshToken) throw new InvalidRequestError('etsy', 'etsy: the refresh token is empty');
    return this.token({ grant_type: 'refresh_token', client_id: this.config.keystring, refresh_token: refreshToken }, [
      refreshToken,
    ]);
  }

  async getMe(auth: EtsyAuth): Promise<EtsyMe> {
    return mapEtsyMe(await this.authed(auth, { method: 'GET', path: PATHS.me }));
  }

  async getShop(auth: EtsyAuth, shopId: string): Promise<EtsyShop> {
    return mapEtsyShop(
      await this.authed(auth, { method: 'GET', path: PATHS.shop, params: { shop_id: id(shopId, 'shopId') } }),
    );
  }

  async listReceipts(
    auth: EtsyAuth,
    shopId: string,
    query: EtsyReceiptQuery = {},
    options: CallOptions = {},
  ): Promise<EtsyReceiptPage> {
    const body = await this.authed(auth, {
      signal: options.signal,
      method: 'GET',
      path: PATHS.receipts,
      params: { shop_id: id(shopId, 'shopId') },
      query: {
        min_created: timestamp(query.minCreated, 'minCreated'),
        max_created: timestamp(query.maxCreated, 'maxCreated'),
        min_last_modified: timestamp(query.minLastModified, 'minLastModified'),
        max_last_modified: timestamp(query.maxLastModified, 'maxLastModified'),
        limit: bounded(query.limit, 1, 100, 'limit'),
        offset: bounded(query.offset, 0, ETSY_MAX_OFFSET, 'offset'),
        sort_on: query.sortOn,
        sort_order: query.sortOrder,
        was_paid: query.wasPaid,
        was_shipped: query.wasShipped,
        was_canceled: query.wasCanceled,
      },
    });
    const page = mapEtsyReceipts(body);
    return { count: page.count, receipts: page.records, payloads: page.payloads, rejected: page.rejected };
  }

  /** One receipt (a webhook named it), with its payload as received. */
  async getReceipt(
    auth: EtsyAuth,
    shopId: string,
    receiptId: string,
  ): Promise<{ receipt: EtsyReceipt; payload: unknown }> {
    const payload = await this.authed(auth, {
      method: 'GET',
      path: PATHS.receipt,
      params: { shop_id: id(shopId, 'shopId'), receipt_id: id(receiptId, 'receiptId') },
    });
    return { receipt: mapEtsyReceipt(payload), payload };
  }

  /** getPayments: the payments with these ids (at most ETSY_MAX_IDS_PER_CALL). */
  async listPaymentsByIds(
    auth: EtsyAuth,
    shopId: string,
    paymentIds: readonly string[],
    options: CallOptions = {},
  ): Promise<EtsyPaymentList> {
    return this.paymentList(auth, PATHS.paymentsById, shopId, 'payment_ids', paymentIds, options);
  }

  /** getPaymentAccountLedgerEntryPayments: the payments behind these ledger entries (PAYMENT_GROSS). */
  async listLedgerEntryPayments(
    auth: EtsyAuth,
    shopId: string,
    ledgerEntryIds: readonly string[],
    options: CallOptions = {},
  ): Promise<EtsyPaymentList> {
    return this.paymentList(auth, PATHS.ledgerPayments, shopId, 'ledger_entry_ids', ledgerEntryIds, options);
  }

  private async paymentList(
    auth: EtsyAuth,
    path: string,
    shopId: string,
    listName: string,
    ids: readonly string[],
    options: CallOptions,
  ): Promise<EtsyPaymentList> {
    if (ids.length === 0) return { payments: [], payloads: [], rejected: [] };
    if (ids.length > ETSY_MAX_IDS_PER_CALL)
      throw new InvalidRequestError('etsy', `etsy: at most ${ETSY_MAX_IDS_PER_CALL} ids per call`);
    const list = ids.map((value) => id(value, listName)).join(',');
    const body = await this.authed(auth, {
      signal: options.signal,
      method: 'GET',
      path,
      params: { shop_id: id(shopId, 'shopId') },
      query: { [listName]: list },
    });
    const page = mapEtsyPayments(body);
    return { payments: page.records, payloads: page.payloads, rejected: page.rejected };
  }

  /**
   * A receipt's payments (often none before it ships). A malformed payment fails the call
   * with PayloadSchemaError: a receipt's payments are one unit for the fee calculation.
   */
  async listReceiptPayments(auth: EtsyAuth, shopId: string, receiptId: string): Promise<EtsyPayment[]> {
    return (await this.receiptPayments(auth, shopId, receiptId)).payments;
  }

  /** The same payments with their payloads as received (the worker stores both). */
  async receiptPayments(auth: EtsyAuth, shopId: string, receiptId: string): Promise<EtsyPaymentList> {
    const body = await this.authed(auth, {
      method: 'GET',
      path: PATHS.payments,
      params: { shop_id: id(shopId, 'shopId'), receipt_id: id(receiptId, 'receiptId') },
    });
    const page = mapEtsyPayments(body);
    const bad = page.rejected[0];
    if (bad) throw new PayloadSchemaError('etsy', bad.field, bad.reason);
    return { payments: page.records, payloads: page.payloads, rejected: [] };
  }

  async listLedgerEntries(
    auth: EtsyAuth,
    shopId: string,
    query: EtsyLedgerQuery,
    options: CallOptions = {},
  ): Promise<EtsyLedgerPage> {
    const minCreated = timestamp(query.minCreated, 'minCreated');
    const maxCreated = timestamp(query.maxCreated, 'maxCreated');
    if (minCreated === undefined || maxCreated === undefined)
      throw new InvalidRequestError('etsy', 'etsy: the ledger needs minCreated and maxCreated');
    if (maxCreated < minCreated) throw new InvalidRequestError('etsy', 'etsy: maxCreated is before minCreated');
    if (maxCreated - minCreated > ETSY_MAX_LEDGER_WINDOW_SECONDS) {
      throw new InvalidRequestError(
        'etsy',
        `etsy: a ledger window may span at most ${ETSY_MAX_LEDGER_WINDOW_SECONDS} s (31 days)`,
      );
    }
    const body = await this.authed(auth, {
      signal: options.signal,
      method: 'GET',
      path: PATHS.ledger,
      params: { shop_id: id(shopId, 'shopId') },
      query: {
        min_created: minCreated,
        max_created: maxCreated,
        limit: bounded(query.limit, 1, 100, 'limit'),
        offset: bounded(query.offset, 0, ETSY_MAX_OFFSET, 'offset'),
      },
    });
    const page = mapEtsyLedgerEntries(body);
    return { count: page.count, entries: page.records, payloads: page.payloads, rejected: page.rejected };
  }

  /** One call with the connection's token; a 401 leads to exactly one refresh and one more try. */
  private async authed(
    auth: EtsyAuth,
    request: Pick<HttpRequest, 'method' | 'path' | 'params' | 'query' | 'signal'>,
  ): Promise<unknown> {
    const plan = this.planFor(auth.connectionKey);
    const send = async (accessToken: string) =>
      (
        await this.request({
          ...request,
          headers: { authorization: `Bearer ${accessToken}` },
          secrets: [accessToken],
          rate: plan,
          onResponse: etsyRateHeaders({
            limiter: this.limiter,
            plan,
            perSecondLimit: this.perSecondLimit,
            clock: this.clock,
            dailyQuotaPauseMs: this.dailyQuotaPauseMs,
          }),
        })
      ).body;
    const accessToken = await auth.getAccessToken();
    try {
      return await send(accessToken);
    } catch (error) {
      if (!(error instanceof AuthError)) throw error;
      const fresh = await auth.refreshAfterUnauthorized(accessToken);
      return send(fresh);
    }
  }

  private async token(form: Record<string, string>, secrets: string[]): Promise<EtsyTokenSet> {
    const plan: RatePlan = { scope: scopeKey('etsy:app', this.config.keystring), limit: this.limit, kind: 'second' };
    const response = await this.request({
      method: 'POST',
      path: PATHS.token,
      form,
      secrets,
      rate: plan,
      idempotent: false,
      classifyError: ({ status, body }) => oauthError(status, body),
    });
    return mapEtsyTokenResponse(response.body, this.clock.now());
  }

  private planFor(connectionKey: string): RatePlan {
    if (!connectionKey) throw new InvalidRequestError('etsy', 'etsy: the connection key is empty');
    const scope = scopeKey('etsy:conn', connectionKey);
    return {
      scope,
      limit: this.limit,
      kind: 'second',
      blockScopes: [{ scope: `${scope}:day`, kind: 'day' }],
      classify429: (headers) => (headers.get('x-remaining-today')?.trim() === '0' ? 'day' : 'second'),
    };
  }
}

/** RFC 6749 token errors: invalid_grant means the grant is gone (reconnect); others are our fault. */
function oauthError(status: number, body: unknown): ProviderError | undefined {
  const code = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
  if (code === 'invalid_grant')
    return new ReauthRequiredError(
      'etsy',
      `etsy token endpoint: invalid_grant (${status}); the seller must connect again`,
      status,
    );
  if (typeof code === 'string' && /^[a-z_]{1,40}$/.test(code)) {
    return new ProviderError(`etsy token endpoint: ${code} (${status})`, {
      provider: 'etsy',
      status,
      code: 'oauth_error',
      upstreamMessage: code,
    });
  }
  return undefined;
}

function id(value: string, name: string): string {
  if (!/^\d{1,19}$/.test(value)) throw new InvalidRequestError('etsy', `etsy: ${name} is not a numeric id`);
  return value;
}

function timestamp(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < ETSY_MIN_TIMESTAMP)
    throw new InvalidRequestError('etsy', `etsy: ${name} must be whole epoch seconds from 2000-01-01`);
  return value;
}

function bounded(value: number | undefined, min: number, max: number, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new InvalidRequestError('etsy', `etsy: ${name} must be ${min}-${max}`);
  return value;
}
