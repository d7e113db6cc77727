import { HttpStatus } from '@nestjs/common';
import { RETRYABLE_PROVIDER_ERROR_CODES } from '@pod/integrations';
import { etsyCallbackFailureReason, providerFailure } from './provider-errors';

const NOT_RETRYABLE = ['invalid_token', 'reauth_required', 'not_found', 'malformed_response', 'payload_schema', 'redirect_refused', 'host_not_allowed', 'bad_request', 'forbidden', 'oauth_error', 'client_error'];
const failureWith = (code: string) => Object.assign(new Error(`provider failed: ${code}`), { code, retryAfterMs: 4_500 });

describe('a provider failure the connection flows did not handle', () => {
  it.each(RETRYABLE_PROVIDER_ERROR_CODES.filter((code) => code !== 'rate_limited'))('%s (retryable) is a 503: try again later', (code) => {
    const answer = providerFailure(failureWith(code), 'Printify');
    expect(answer.getStatus()).toBe(HttpStatus.SERVICE_UNAVAILABLE);
    expect(answer.message).toBe('Printify did not answer. Please try again.');
  });

  it('rate_limited is a 429 naming the wait in whole seconds', () => {
    const answer = providerFailure(failureWith('rate_limited'), 'Etsy');
    expect(answer.getStatus()).toBe(HttpStatus.TOO_MANY_REQUESTS);
    expect(answer.message).toBe('Etsy is busy right now. Please try again in 5 seconds.');
  });

  it.each(NOT_RETRYABLE)('%s (not retryable) is a 502', (code) => {
    expect(providerFailure(failureWith(code), 'Etsy').getStatus()).toBe(HttpStatus.BAD_GATEWAY);
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
