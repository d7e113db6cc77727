import { HttpException, HttpStatus } from '@nestjs/common';
import { PROVIDER_MESSAGES, type ProviderLabel } from '@pod/contracts';
import {
  isRetryableProviderErrorCode,
  ProviderError,
  RateLimitedError,
  type ProviderErrorCode,
} from '@pod/integrations';
import { ApiException } from '../http/api-exception';

/**
 * The `code` of the clients' typed errors, by class: any other error (Node's ECONNRESET, a
 * driver's SQLSTATE) may carry a `code` too, and must not be read as a provider's answer.
 */
export function providerErrorCode(error: unknown): ProviderErrorCode | undefined {
  return error instanceof ProviderError ? error.code : undefined;
}

export const isAuthFailure = (error: unknown) =>
  ['invalid_token', 'forbidden'].includes(providerErrorCode(error) ?? '');

/** The `reason` of a failed Etsy callback's redirect: `unavailable` when trying again later may work, else the step that failed. */
export function etsyCallbackFailureReason<Step extends string>(code: string, step: Step): Step | 'unavailable' {
  return isRetryableProviderErrorCode(code) ? 'unavailable' : step;
}

/** 429 from the provider (or our shared limiter): the caller may try again after the wait. */
export class ProviderBusyException extends ApiException {
  constructor(retryAfterSeconds: number, provider: ProviderLabel) {
    super(HttpStatus.TOO_MANY_REQUESTS, 'provider_busy', PROVIDER_MESSAGES.providerBusy(provider, retryAfterSeconds), {
      retryAfterSeconds,
    });
  }
}

/**
 * Maps a provider failure that the flow did not handle itself to a clear answer: a rate
 * limit to 429 with Retry-After, an outage or timeout to 503, anything else (a refusal we did
 * not expect, a malformed answer, a redirect) to 502. The messages are ours: the provider's
 * own text and the request's details never reach the caller.
 */
export function providerFailure(error: unknown, provider: ProviderLabel): HttpException {
  if (error instanceof HttpException) return error;
  if (error instanceof RateLimitedError) {
    const ms = error.retryAfterMs;
    return new ProviderBusyException(Math.max(1, Math.ceil((Number.isFinite(ms) ? ms : 1000) / 1000)), provider);
  }
  const code = providerErrorCode(error);
  if (isRetryableProviderErrorCode(code)) {
    return new ApiException(
      HttpStatus.SERVICE_UNAVAILABLE,
      'provider_unavailable',
      PROVIDER_MESSAGES.providerUnavailable(provider),
    );
  }
  return new ApiException(HttpStatus.BAD_GATEWAY, 'provider_rejected', PROVIDER_MESSAGES.providerUnavailable(provider));
}

export const invalidPrintifyToken = () =>
  new ApiException(HttpStatus.BAD_REQUEST, 'printify_token_invalid', PROVIDER_MESSAGES.invalidPrintifyToken);
