export * from './http/errors';
export { systemClock, type Clock } from './http/clock';
export { silentLogger, type ProviderLogger } from './http/logger';
export {
  createRequester,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUTS,
  type FetchLike,
  type HttpClientOptions,
  type HttpDeps,
  type HttpRequest,
  type HttpResponse,
  type RatePlan,
  type Requester,
  type RequestMetricsHook,
  type Timeouts,
} from './http/request';
export { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy } from './http/retry';
export { parseJsonPreservingBigIntegers } from './http/json';
export * from './rate-limit';
export type { MappedList, RejectedRecord } from './payload/read';
export { decodeHtmlEntities } from './payload/html';

export * from './etsy/types';
export * from './etsy/client';
export { createPkcePair, codeChallengeFor, isValidCodeVerifier, randomState, type PkcePair } from './etsy/pkce';
export * from './etsy/mappers';

export * from './printify/types';
export * from './printify/client';
export * from './printify/mappers';
export * from './printify/webhooks';

export * from './ecb';
