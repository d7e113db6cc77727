import type { Provider } from '@pod/contracts';

/**
 * Typed provider errors. Every failure of a provider call is one of these, so a worker can
 * decide from the class alone: retry with backoff (`retryable`), park the job until
 * `retryAfterMs` (RateLimitedError), ask the seller to reconnect (ReauthRequiredError), or
 * give up (anything else that is not retryable).
 *
 * Messages are safe to log and to show an operator: they name the provider, method, host and
 * path template, never a token, secret, code or query string.
 */
export type ProviderName = Provider | 'ecb';

export type ProviderErrorCode =
  | 'rate_limited'
  | 'invalid_token'
  | 'reauth_required'
  | 'not_found'
  | 'upstream_error'
  | 'transport_error'
  | 'timeout'
  | 'malformed_response'
  | 'payload_schema'
  | 'redirect_refused'
  | 'host_not_allowed'
  | 'invalid_request'
  | 'bad_request'
  | 'forbidden'
  | 'oauth_error'
  | 'client_error';

/**
 * The failures that may pass by themselves: a rate limit, a provider outage, the network or a
 * timeout. The one list of them: `ProviderError.retryable` follows it, and so does everyone
 * who decides between "try again later" and "this will not work" (workers, the gateway).
 */
export const RETRYABLE_PROVIDER_ERROR_CODES = [
  'rate_limited',
  'upstream_error',
  'transport_error',
  'timeout',
] as const satisfies readonly ProviderErrorCode[];

export function isRetryableProviderErrorCode(code: string | undefined): boolean {
  return (RETRYABLE_PROVIDER_ERROR_CODES as readonly (string | undefined)[]).includes(code);
}

export interface ProviderErrorDetails {
  provider: ProviderName;
  status: number | null;
  code: ProviderErrorCode;
  /** The provider's own error text (Etsy `error`, Printify `message`), scrubbed of secrets. */
  upstreamMessage?: string;
}

export class ProviderError extends Error {
  readonly provider: ProviderName;
  readonly status: number | null;
  readonly retryable: boolean;
  readonly code: ProviderErrorCode;
  readonly upstreamMessage: string | undefined;

  constructor(message: string, details: ProviderErrorDetails) {
    super(message);
    this.name = 'ProviderError';
    this.provider = details.provider;
    this.status = details.status;
    this.retryable = isRetryableProviderErrorCode(details.code);
    this.code = details.code;
    this.upstreamMessage = details.upstreamMessage;
  }
}

/** Which budget ran out: Etsy's per-second or daily quota, Printify's per-minute budget. */
export type RateLimitScope = 'second' | 'minute' | 'day';

/**
 * The provider (429) or our own shared limiter says "not now". `retryAfterMs` is how long to
 * wait before the next call in this scope can succeed; a job should park itself for it
 * (BullMQ's manual rate limit or a delayed retry) without spending an attempt.
 */
export class RateLimitedError extends ProviderError {
  constructor(
    readonly retryAfterMs: number,
    readonly scope: RateLimitScope,
    provider: ProviderName,
    message: string,
    status: number | null = 429,
  ) {
    super(message, { provider, status, code: 'rate_limited' });
    this.name = 'RateLimitedError';
  }
}

/** 401 `invalid_token`: the access token is expired or revoked; a refresh may help. */
export class AuthError extends ProviderError {
  constructor(provider: ProviderName, message: string, upstreamMessage?: string) {
    super(message, { provider, status: 401, code: 'invalid_token', upstreamMessage });
    this.name = 'AuthError';
  }
}

/** `invalid_grant` on the token endpoint: the grant is gone; the seller must connect again. */
export class ReauthRequiredError extends ProviderError {
  constructor(provider: ProviderName, message: string, status: number | null = 400) {
    super(message, { provider, status, code: 'reauth_required' });
    this.name = 'ReauthRequiredError';
  }
}

export class NotFoundError extends ProviderError {
  constructor(provider: ProviderName, message: string, upstreamMessage?: string) {
    super(message, { provider, status: 404, code: 'not_found', upstreamMessage });
    this.name = 'NotFoundError';
  }
}

/** 5xx after the last attempt. */
export class UpstreamError extends ProviderError {
  constructor(provider: ProviderName, status: number, message: string, upstreamMessage?: string) {
    super(message, { provider, status, code: 'upstream_error', upstreamMessage });
    this.name = 'UpstreamError';
  }
}

/** The network failed (reset, refused, DNS) or a timeout fired, after the last attempt. */
export class TransportError extends ProviderError {
  constructor(
    provider: ProviderName,
    message: string,
    readonly kind: 'network' | 'headers_timeout' | 'body_timeout',
  ) {
    super(message, { provider, status: null, code: kind === 'network' ? 'transport_error' : 'timeout' });
    this.name = 'TransportError';
  }
}

/** The body is not JSON, is too large, or does not have the documented shape. */
export class MalformedResponseError extends ProviderError {
  constructor(
    provider: ProviderName,
    message: string,
    status: number | null = null,
    code: ProviderErrorCode = 'malformed_response',
  ) {
    super(message, { provider, status, code });
    this.name = 'MalformedResponseError';
  }
}

/**
 * One field of a payload is missing or has the wrong type. `field` is the path inside the
 * record (`transactions[0].price.amount`).
 */
export class PayloadSchemaError extends MalformedResponseError {
  constructor(
    provider: ProviderName,
    readonly field: string,
    readonly reason: string,
  ) {
    super(provider, `${provider} payload: ${field} ${reason}`, null, 'payload_schema');
    this.name = 'PayloadSchemaError';
  }
}

/** A 3xx answer: redirects are never followed (they could lead our credentials elsewhere). */
export class RedirectRefusedError extends ProviderError {
  constructor(provider: ProviderName, status: number, message: string) {
    super(message, { provider, status, code: 'redirect_refused' });
    this.name = 'RedirectRefusedError';
  }
}

/** A request to a host outside the configured allow-list; thrown before anything is sent. */
export class HostNotAllowedError extends ProviderError {
  constructor(
    provider: ProviderName,
    readonly origin: string,
  ) {
    super(`${provider}: refusing to call ${origin}, which is not a configured host`, {
      provider,
      status: null,
      code: 'host_not_allowed',
    });
    this.name = 'HostNotAllowedError';
  }
}

/** Our own arguments break a documented limit (window too wide, offset past 12,000…); nothing was sent. */
export class InvalidRequestError extends ProviderError {
  constructor(provider: ProviderName, message: string) {
    super(message, { provider, status: null, code: 'invalid_request' });
    this.name = 'InvalidRequestError';
  }
}

/**
 * The caller gave up on the call (its AbortSignal fired: a worker shutting down): it stopped
 * wherever it was, waiting for a rate-limit token, between retries or in flight. Not a
 * provider failure, so never retried; whoever aborted knows what to do next.
 */
export class RequestAbortedError extends Error {
  constructor(readonly provider: ProviderName) {
    super(`${provider}: the call was abandoned by its caller`);
    this.name = 'RequestAbortedError';
  }
}
