import { RateLimitWaitError, type RateLimit, type RateLimiter } from '../rate-limit/limiter';
import { BodyTooLargeError, readBodyCapped, sendWithTimeout, TransportFailure } from './body';
import { systemClock, type Clock } from './clock';
import {
  AuthError,
  HostNotAllowedError,
  InvalidRequestError,
  MalformedResponseError,
  NotFoundError,
  ProviderError,
  RateLimitedError,
  RedirectRefusedError,
  RequestAbortedError,
  TransportError,
  UpstreamError,
  type ProviderName,
  type RateLimitScope,
} from './errors';
import { parseJsonPreservingBigIntegers } from './json';
import { silentLogger, type ProviderLogger } from './logger';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from './retry';
import { scrubSecrets, upstreamMessageOf } from './scrub';

/** The part of `fetch` the clients use; tests inject a fake. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface Timeouts {
  /** From sending until the response headers arrive (default 30 s). */
  headersMs: number;
  /** From the headers until the whole body has arrived (default 60 s). */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { headersMs: 30_000, bodyMs: 60_000 };
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpClientOptions {
  provider: ProviderName;
  /** Where requests go; its origin is the only host allowed (plus `extraAllowedOrigins`). */
  baseUrl: string;
  extraAllowedOrigins?: readonly string[];
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Larger bodies fail as MalformedResponseError (default 10 MB). */
  maxBodyBytes?: number;
  /** Sent on every request (User-Agent, x-api-key…). */
  defaultHeaders?: Readonly<Record<string, string>>;
  /** Values that must never reach a log line or an error message (the shared secret…). */
  secrets?: readonly string[];
}

export interface HttpDeps {
  fetch?: FetchLike;
  logger?: ProviderLogger;
  clock?: Clock;
  /** [0, 1) for the backoff jitter; Math.random by default. */
  random?: () => number;
  limiter?: RateLimiter;
  /** Counts each attempt and each 429 (Prometheus in the processes); never alters a request. */
  metrics?: RequestMetricsHook;
}

/**
 * What the request function reports for metrics, as plain calls (this library knows no
 * metrics client). A hook that throws is ignored.
 */
export interface RequestMetricsHook {
  /** Every call sent, retries included; `status` is null when no response came (timeout, refused connection). */
  onAttempt?(attempt: { provider: ProviderName; status: number | null; durationMs: number }): void;
  /** A 429 from the provider, with the budget it exhausted and how long it asked to wait. */
  onRateLimited?(event: { provider: ProviderName; scope: RateLimitScope; retryAfterMs: number }): void;
}

/** Which shared budget a request spends, and which other budgets' blocks stop it. */
export interface RatePlan {
  scope: string;
  limit: RateLimit;
  kind: RateLimitScope;
  /** Scopes checked for blocks only (an Etsy connection's daily quota), with the kind they stand for. */
  blockScopes?: readonly { scope: string; kind: RateLimitScope }[];
  /** Which budget a 429 exhausted (default `kind`); its scope is the one blocked for every replica. */
  classify429?: (headers: Headers) => RateLimitScope;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A path template (`/v3/application/shops/{shop_id}`), the only form of the path ever logged. */
  path: string;
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  headers?: Readonly<Record<string, string>>;
  /** An application/x-www-form-urlencoded body. */
  form?: Readonly<Record<string, string>>;
  /** A JSON body (application/json; charset=utf-8). At most one of `form` and `json`. */
  json?: unknown;
  /** Values of this request never to log or put in an error (tokens, codes, verifiers). */
  secrets?: readonly string[];
  rate?: RatePlan;
  /**
   * Whether sending twice is harmless (default: GET, PUT and DELETE yes, POST no). A request that is not is
   * retried only when the server surely did not act on it: a 429, or a connection that was
   * never made. (A retried code exchange or refresh would fail with invalid_grant.)
   */
  idempotent?: boolean;
  /**
   * How a 2xx body is read: parsed JSON (default), UTF-8 text (XML files) or the raw bytes (a
   * ZIP archive). Error bodies are always read loosely as text or JSON.
   */
  responseType?: 'json' | 'text' | 'bytes';
  /** Sees every response's status and headers before anything else (Etsy's rate headers). */
  onResponse?: (response: { status: number; headers: Headers }) => Promise<void> | void;
  /** Maps a 4xx (other than 429) to a provider error; undefined falls back to the default mapping. */
  classifyError?: (failure: {
    status: number;
    body: unknown;
    upstreamMessage: string | undefined;
  }) => ProviderError | undefined;
  /**
   * The caller's way to give up (a worker shutting down): once aborted the call stops at once,
   * wherever it is (waiting for a rate-limit token, between retries, in flight), and rejects
   * with RequestAbortedError, never retried.
   */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  /**
   * The parsed JSON body (integers beyond 2^53 as strings; null for an empty body); a string
   * with responseType 'text', a Buffer with 'bytes'.
   */
  body: unknown;
}

export type Requester = (request: HttpRequest) => Promise<HttpResponse>;

type Decision =
  | { type: 'return'; response: HttpResponse }
  | { type: 'retry'; delayMs: number; error: ProviderError }
  | { type: 'throw'; error: ProviderError };

/**
 * The one request function of the provider clients: allow-listed hosts, no redirects,
 * header and body timeouts, a body size cap, the shared rate limiter, retries with
 * exponential backoff and full jitter (at most `maxAttempts` calls), `Retry-After`, typed
 * errors and log lines without secrets.
 */
export function createRequester(options: HttpClientOptions, deps: HttpDeps = {}): Requester {
  const provider = options.provider;
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new Error(`${provider}: base URL must be http(s)`);
  const basePath = base.pathname.replace(/\/+$/, '');
  const allowed = new Set([base.origin, ...(options.extraAllowedOrigins ?? []).map((o) => new URL(o).origin)]);
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const fetchImpl: FetchLike = deps.fetch ?? ((url, init) => fetch(url, init));
  const logger = deps.logger ?? silentLogger;
  const clock = deps.clock ?? systemClock;
  const random = deps.random ?? Math.random;
  const limiter = deps.limiter;
  const report = (call: (hook: RequestMetricsHook) => void) => {
    if (!deps.metrics) return;
    try {
      call(deps.metrics);
    } catch {
      // Metrics must never fail a provider call.
    }
  };

  function buildUrl(request: HttpRequest): URL {
    const filled = request.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = request.params?.[name];
      if (value === undefined || value === '')
        throw new InvalidRequestError(provider, `${provider}: path parameter ${name} is missing`);
      return encodeURIComponent(value);
    });
    const url = /^https?:\/\//i.test(filled)
      ? new URL(filled)
      : new URL(`${base.origin}${basePath}${filled.startsWith('/') ? '' : '/'}${filled}`);
    if (!allowed.has(url.origin)) throw new HostNotAllowedError(provider, url.origin);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url;
  }

  return async function request(request: HttpRequest): Promise<HttpResponse> {
    const url = buildUrl(request);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.defaultHeaders,
      ...request.headers,
    };
    let body: string | undefined;
    if (request.form && request.json !== undefined)
      throw new InvalidRequestError(provider, `${provider}: a request has one body, form or JSON`);
    if (request.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(request.form).toString();
    } else if (request.json !== undefined) {
      headers['content-type'] = 'application/json; charset=utf-8';
      body = JSON.stringify(request.json);
    }
    const secrets = collectSecrets(headers, [...(options.secrets ?? []), ...(request.secrets ?? [])]);
    const idempotent = request.idempotent ?? request.method !== 'POST';
    const what = `${provider} ${request.method} ${url.host}${request.path}`;
    const logBase = { event: 'provider_request', provider, method: request.method, host: url.host, path: request.path };

    const signal = request.signal;
    for (let attempt = 1; ; attempt += 1) {
      await unlessAborted(acquire(request.rate, what), signal, provider);
      const started = clock.now();
      const decision = await attemptOnce(request, url, headers, body, { attempt, idempotent, secrets, what });
      if (signal?.aborted) throw new RequestAbortedError(provider);
      const durationMs = clock.now() - started;
      report((hook) =>
        hook.onAttempt?.({
          provider,
          status: decision.type === 'return' ? decision.response.status : decision.error.status,
          durationMs,
        }),
      );
      if (decision.type === 'return') {
        logger.info({ ...logBase, status: decision.response.status, attempt, durationMs }, 'provider request');
        return decision.response;
      }
      const status = decision.error.status;
      if (decision.type === 'retry' && attempt < policy.maxAttempts) {
        logger.warn(
          { ...logBase, status, attempt, durationMs, errorCode: decision.error.code, retryInMs: decision.delayMs },
          'provider request failed; retrying',
        );
        await unlessAborted(clock.sleep(decision.delayMs), signal, provider);
        continue;
      }
      logger.warn(
        { ...logBase, status, attempt, durationMs, errorCode: decision.error.code },
        'provider request failed',
      );
      throw decision.error;
    }
  };

  async function acquire(plan: RatePlan | undefined, what: string): Promise<void> {
    if (!plan || !limiter) return;
    try {
      await limiter.acquire(plan.scope, plan.limit, {
        maxWaitMs: policy.maxRetryAfterMs,
        blockScopes: plan.blockScopes?.map((b) => b.scope),
      });
    } catch (error) {
      if (!(error instanceof RateLimitWaitError)) throw error;
      const kind = error.blockedScope ? kindOfScope(plan, error.blockedScope) : plan.kind;
      logger.warn(
        { event: 'provider_rate_limited', provider, scope: kind, retryAfterMs: error.waitMs, source: 'limiter' },
        'provider budget exhausted',
      );
      throw new RateLimitedError(
        error.waitMs,
        kind,
        provider,
        `${what}: ${kind} budget exhausted for ${error.waitMs} ms`,
        null,
      );
    }
  }

  async function attemptOnce(
    request: HttpRequest,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    ctx: { attempt: number; idempotent: boolean; secrets: string[]; what: string },
  ): Promise<Decision> {
    const backoff = () => backoffDelayMs(ctx.attempt, policy, random);
    const controller = new AbortController();
    // The caller giving up aborts the call in flight too (the loop then throws RequestAbortedError).
    const abandon = () => controller.abort();
    request.signal?.addEventListener('abort', abandon, { once: true });
    try {
      return await sendAndRead(request, url, headers, body, ctx, controller, backoff);
    } finally {
      request.signal?.removeEventListener('abort', abandon);
    }
  }

  async function sendAndRead(
    request: HttpRequest,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    ctx: { attempt: number; idempotent: boolean; secrets: string[]; what: string },
    controller: AbortController,
    backoff: () => number,
  ): Promise<Decision> {
    let response: Response;
    try {
      response = await sendWithTimeout(
        fetchImpl,
        url.toString(),
        { method: request.method, headers, body, redirect: 'manual' },
        controller,
        timeouts.headersMs,
      );
    } catch (error) {
      const failure = TransportFailure.from(error);
      const transport = new TransportError(provider, `${ctx.what}: ${failure.describe()}`, failure.kind);
      return ctx.idempotent || !failure.maybeSent
        ? { type: 'retry', delayMs: backoff(), error: transport }
        : { type: 'throw', error: transport };
    }
    const status = response.status;
    try {
      await request.onResponse?.({ status, headers: response.headers });
    } catch (error) {
      controller.abort();
      void response.body?.cancel().catch(() => undefined);
      throw error;
    }

    if (status >= 300 && status < 400) {
      void response.body?.cancel().catch(() => undefined);
      return {
        type: 'throw',
        error: new RedirectRefusedError(provider, status, `${ctx.what}: refused to follow a ${status} redirect`),
      };
    }

    let bytes: Buffer;
    try {
      bytes = await readBodyCapped(response, controller, timeouts.bodyMs, maxBodyBytes);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        return { type: 'throw', error: new MalformedResponseError(provider, `${ctx.what}: ${error.message}`, status) };
      }
      const failure = TransportFailure.from(error);
      const transport = new TransportError(
        provider,
        `${ctx.what}: ${failure.describe()} while reading the body`,
        failure.kind,
      );
      return ctx.idempotent
        ? { type: 'retry', delayMs: backoff(), error: transport }
        : { type: 'throw', error: transport };
    }

    if (status >= 200 && status < 300 && request.responseType === 'bytes')
      return { type: 'return', response: { status, headers: response.headers, body: bytes } };
    const text = bytes.toString('utf8');
    if (status >= 200 && status < 300 && request.responseType === 'text')
      return { type: 'return', response: { status, headers: response.headers, body: text } };
    if (status >= 200 && status < 300) {
      let parsed: unknown = null;
      if (text.trim() !== '') {
        try {
          parsed = parseJsonPreservingBigIntegers(text);
        } catch {
          const error = new MalformedResponseError(provider, `${ctx.what}: the ${status} body is not JSON`, status);
          return ctx.idempotent ? { type: 'retry', delayMs: backoff(), error } : { type: 'throw', error };
        }
      }
      return { type: 'return', response: { status, headers: response.headers, body: parsed } };
    }

    const errorBody = parseLoosely(text);
    const upstreamMessage = scrubSecrets(upstreamMessageOf(errorBody), ctx.secrets);

    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), clock.now());
      const kind = request.rate?.classify429?.(response.headers) ?? request.rate?.kind ?? 'second';
      const waitMs = retryAfterMs ?? backoff();
      if (request.rate && limiter) await limiter.block(scopeOfKind(request.rate, kind), waitMs);
      logger.warn(
        { event: 'provider_rate_limited', provider, scope: kind, retryAfterMs: waitMs, source: 'upstream' },
        'provider answered 429',
      );
      report((hook) => hook.onRateLimited?.({ provider, scope: kind, retryAfterMs: waitMs }));
      const error = new RateLimitedError(
        waitMs,
        kind,
        provider,
        `${ctx.what}: 429, ${kind} limit; retry after ${waitMs} ms`,
      );
      if (waitMs > policy.maxRetryAfterMs) return { type: 'throw', error };
      // With a limiter the block makes the next acquire() wait; without one, sleep here.
      return { type: 'retry', delayMs: request.rate && limiter ? 0 : waitMs, error };
    }

    if (status >= 500) {
      const error = new UpstreamError(provider, status, `${ctx.what}: HTTP ${status}`, upstreamMessage);
      if (!ctx.idempotent) return { type: 'throw', error };
      const retryAfterMs = status === 503 ? parseRetryAfter(response.headers.get('retry-after'), clock.now()) : null;
      if (retryAfterMs !== null && retryAfterMs > policy.maxRetryAfterMs) {
        return {
          type: 'throw',
          error: new RateLimitedError(
            retryAfterMs,
            request.rate?.kind ?? 'second',
            provider,
            `${ctx.what}: 503, retry after ${retryAfterMs} ms`,
            503,
          ),
        };
      }
      return { type: 'retry', delayMs: retryAfterMs ?? backoff(), error };
    }

    const custom = request.classifyError?.({ status, body: errorBody, upstreamMessage });
    return { type: 'throw', error: custom ?? defaultClientError(provider, status, ctx.what, upstreamMessage) };
  }
}

/**
 * `work`, unless `signal` fires first: then RequestAbortedError at once (what `work` was doing,
 * a limiter's wait or a sleep, finishes unobserved).
 */
async function unlessAborted<T>(work: Promise<T>, signal: AbortSignal | undefined, provider: ProviderName): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  if (signal.aborted) throw new RequestAbortedError(provider);
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new RequestAbortedError(provider));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

function defaultClientError(
  provider: ProviderName,
  status: number,
  what: string,
  upstreamMessage: string | undefined,
): ProviderError {
  if (status === 401) return new AuthError(provider, `${what}: 401 unauthorized`, upstreamMessage);
  if (status === 404) return new NotFoundError(provider, `${what}: 404 not found`, upstreamMessage);
  const code = status === 403 ? 'forbidden' : status === 400 || status === 422 ? 'bad_request' : 'client_error';
  return new ProviderError(`${what}: HTTP ${status}`, { provider, status, code, upstreamMessage });
}

function kindOfScope(plan: RatePlan, scope: string): RateLimitScope {
  if (scope === plan.scope) return plan.kind;
  return plan.blockScopes?.find((b) => b.scope === scope)?.kind ?? plan.kind;
}

function scopeOfKind(plan: RatePlan, kind: RateLimitScope): string {
  if (kind === plan.kind) return plan.scope;
  return plan.blockScopes?.find((b) => b.kind === kind)?.scope ?? plan.scope;
}

function parseLoosely(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The secret values of the headers (Authorization's token, both halves of x-api-key) plus the given ones. */
function collectSecrets(headers: Record<string, string>, extra: readonly string[]): string[] {
  const found = [...extra];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') found.push(value, value.replace(/^Bearer\s+/i, ''));
    if (lower === 'x-api-key') found.push(value, ...value.split(':'));
  }
  return found.filter((s) => s.length >= 4);
}
