import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { PROVIDER_MESSAGES, type ProviderLabel } from '@pod/contracts';
import { isRetryableProviderErrorCode } from '@pod/integrations';
import { UpstreamFailureException } from '../http/upstream-failure.exception';

/** The clients' typed errors carry a stable `code`; read it without trusting anything else. */
export function providerErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export const isAuthFailure = (error: unknown) => ['invalid_token', 'forbidden'].includes(providerErrorCode(error) ?? '');
export const isReauthRequired = (error: unknown) => providerErrorCode(error) === 'reauth_required';

/** The `reason` of a failed Etsy callback's redirect: `unavailable` when trying again later may work, else the step that failed. */
export function etsyCallbackFailureReason<Step extends string>(code: string, step: Step): Step | 'unavailable' {
  return isRetryableProviderErrorCode(code) ? 'unavailable' : step;
}

/** 429 from the provider (or our shared limiter): the caller may try again after the wait. */
export class ProviderBusyException extends HttpException {
  constructor(
    readonly retryAfterSeconds: number,
    provider: ProviderLabel,
  ) {
    super(PROVIDER_MESSAGES.providerBusy(provider, retryAfterSeconds), HttpStatus.TOO_MANY_REQUESTS);
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
  const code = providerErrorCode(error);
  if (code === 'rate_limited') {
    const ms = Number((error as { retryAfterMs?: unknown }).retryAfterMs);
    return new ProviderBusyException(Math.max(1, Math.ceil((Number.isFinite(ms) ? ms : 1000) / 1000)), provider);
  }
  if (isRetryableProviderErrorCode(code)) {
    return new UpstreamFailureException(HttpStatus.SERVICE_UNAVAILABLE, PROVIDER_MESSAGES.providerUnavailable(provider));
  }
  return new UpstreamFailureException(HttpStatus.BAD_GATEWAY, PROVIDER_MESSAGES.providerUnavailable(provider));
}

export const invalidPrintifyToken = () => new BadRequestException(PROVIDER_MESSAGES.invalidPrintifyToken);
