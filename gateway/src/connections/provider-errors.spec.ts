import { HttpStatus } from '@nestjs/common';
import {
  ProviderError,
  RateLimitedError,
  RETRYABLE_PROVIDER_ERROR_CODES,
  type ProviderErrorCode,
} from '@pod/integrations';
import { ApiException } from '../http/api-exception';
import { etsyCallbackFailureReason, providerErrorCode, providerFailure } from './provider-errors';

const NOT_RETRYABLE: ProviderErrorCode[] = [
  'invalid_token',
  'reauth_required',
  'not_found',
  'malformed_response',
  'payload_schema',
  'redirect_refused',
  'host_not_allowed',
  'bad_request',
  'forbidden',
  'oauth_error',
  'client_error',
];
const failureWith = (code: ProviderErrorCode) =>
  code === 'rate_limited'
    ? new RateLimitedError(4_500, 'second', 'etsy', 'etsy: 429')
    : new ProviderError(`provider failed: ${code}`, { provider: 'etsy', status: null, code });
const codeOf = (answer: unknown) => (answer instanceof ApiException ? answer.code : undefined);

describe('a provider failure the connection flows did not handle', () => {
  it.each(RETRYABLE_PROVIDER_ERROR_CODES.filter((code) => code !== 'rate_limited'))(
    '%s (retryable) is a 503: try again later',
    (code) => {
      const answer = providerFailure(failureWith(code), 'Printify');
      expect(answer.getStatus()).toBe(HttpStatus.SERVICE_UNAVAILABLE);
      expect(answer.message).toBe('Printify did not answer. Please try again.');
      expect(codeOf(answer)).toBe('provider_unavailable');
    },
  );

  it('rate_limited is a 429 naming the wait in whole seconds', () => {
    const answer = providerFailure(failureWith('rate_limited'), 'Etsy');
    expect(answer.getStatus()).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect(answer.message).toBe('Etsy is busy right now. Please try again in 5 seconds.');
    expect(codeOf(answer)).toBe('provider_busy');
  });

  it.each(NOT_RETRYABLE)('%s (not retryable) is a 502', (code) => {
    const answer = providerFailure(failureWith(code), 'Etsy');
    expect(answer.getStatus()).toBe(HttpStatus.BAD_GATEWAY);
    expect(codeOf(answer)).toBe('provider_rejected');
  });

  // By class, never by a `code` property or message text other errors may carry too.
  it.each([
    ['a network error with a retryable-looking code', Object.assign(new Error('socket hang up'), { code: 'timeout' })],
    ['an error whose message names a rate limit', new Error('rate_limited: 429 Too Many Requests, retry after 5s')],
    ['a plain object imitating a rate limit', { code: 'rate_limited', retryAfterMs: 1000 }],
  ])('%s is not a provider answer: 502, no code read', (_label, error) => {
    expect(providerErrorCode(error)).toBeUndefined();
    expect(providerFailure(error, 'Etsy').getStatus()).toBe(HttpStatus.BAD_GATEWAY);
  });
});

describe('the reason a failed Etsy callback reports', () => {
  it.each(RETRYABLE_PROVIDER_ERROR_CODES)('%s: unavailable (trying again later may work)', (code) => {
    expect(etsyCallbackFailureReason(code, 'exchange')).toBe('unavailable');
  });

  it.each(NOT_RETRYABLE)('%s: the step that failed', (code) => {
    expect(etsyCallbackFailureReason(code, 'shop')).toBe('shop');
  });
});
