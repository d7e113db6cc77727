import {
  AuthError,
  HostNotAllowedError,
  InvalidRequestError,
  isRetryableProviderErrorCode,
  MalformedResponseError,
  NotFoundError,
  PayloadSchemaError,
  ProviderError,
  RateLimitedError,
  ReauthRequiredError,
  RedirectRefusedError,
  RETRYABLE_PROVIDER_ERROR_CODES,
  TransportError,
  UpstreamError,
} from './errors';

const oneOfEach: ProviderError[] = [
  new RateLimitedError(1_000, 'second', 'etsy', 'etsy: slow down'),
  new AuthError('etsy', 'etsy: invalid token'),
  new ReauthRequiredError('etsy', 'etsy: invalid_grant'),
  new NotFoundError('printify', 'printify: no such order'),
  new UpstreamError('printify', 502, 'printify: HTTP 502'),
  new TransportError('etsy', 'etsy: ECONNRESET', 'network'),
  new TransportError('etsy', 'etsy: no headers in time', 'headers_timeout'),
  new TransportError('etsy', 'etsy: body too slow', 'body_timeout'),
  new MalformedResponseError('etsy', 'etsy: not JSON'),
  new PayloadSchemaError('printify', 'line_items[0].cost', 'is not an integer'),
  new RedirectRefusedError('etsy', 302, 'etsy: redirect refused'),
  new HostNotAllowedError('etsy', 'https://evil.example'),
  new InvalidRequestError('etsy', 'etsy: window too wide'),
  new ProviderError('printify: HTTP 400', { provider: 'printify', status: 400, code: 'bad_request' }),
];

describe('retryable provider errors', () => {
  it('are exactly a rate limit, an outage, the network and a timeout', () => {
    expect([...RETRYABLE_PROVIDER_ERROR_CODES].sort()).toEqual([
      'rate_limited',
      'timeout',
      'transport_error',
      'upstream_error',
    ]);
  });

  it.each(oneOfEach.map((error) => [error.name, error.code, error] as const))(
    '%s (%s) is retryable exactly when its code is in the list',
    (_name, code, error) => {
      expect(error.retryable).toBe((RETRYABLE_PROVIDER_ERROR_CODES as readonly string[]).includes(code));
    },
  );

  it('covers every retryable code with some error class', () => {
    expect(new Set(oneOfEach.filter((error) => error.retryable).map((error) => error.code))).toEqual(
      new Set(RETRYABLE_PROVIDER_ERROR_CODES),
    );
  });

  it('reads an unknown or missing code as not retryable', () => {
    expect(isRetryableProviderErrorCode(undefined)).toBe(false);
    expect(isRetryableProviderErrorCode('reauth_required')).toBe(false);
    expect(isRetryableProviderErrorCode('timeout')).toBe(true);
  });
});
