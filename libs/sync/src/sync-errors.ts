import type { SyncErrorCode } from '@pod/contracts';
import { AuthError, ProviderError, RateLimitedError, ReauthRequiredError } from '@pod/integrations';

/**
 * Another worker owns the run now (the cursor or the run's version moved under us: a stalled
 * worker resumed, or a duplicated job). The page is rolled back and this worker stops quietly.
 */
export class LostOwnershipError extends Error {
  constructor(readonly what: 'cursor' | 'run') {
    super(`sync: the ${what} moved under this worker; another worker owns the run`);
    this.name = 'LostOwnershipError';
  }
}

/** The process is shutting down: the run's job goes back to the queue after the current page. */
export class ShutdownRequestedError extends Error {
  constructor() {
    super('sync: stopping after the committed page (shutdown)');
    this.name = 'ShutdownRequestedError';
  }
}

/** What the driver does with a failure of a page. */
export type FailureVerdict =
  | { kind: 'wait-quota'; retryAfterMs: number }
  | { kind: 'wait'; retryAfterMs: number }
  | { kind: 'reconnect' }
  | { kind: 'retry'; errorCode: SyncErrorCode; message: string }
  | { kind: 'give-up'; errorCode: SyncErrorCode; message: string };

const USER_MESSAGES: Record<SyncErrorCode, (provider: string) => string> = {
  needs_reconnecting: (p) => `${p} no longer accepts PodProfit's access. Reconnect ${p} on the Connections page.`,
  provider_unavailable: (p) => `${p} did not answer. PodProfit will try again at the next sync.`,
  provider_rejected: (p) => `${p} refused the request. PodProfit will try again at the next sync.`,
  connection_missing: (p) => `${p} was disconnected while the sync was running.`,
  internal: () => 'The sync stopped on an internal error. PodProfit will try again at the next sync.',
};

export function userMessageFor(code: SyncErrorCode, provider: 'etsy' | 'printify'): string {
  return USER_MESSAGES[code](provider === 'etsy' ? 'Etsy' : 'Printify');
}

/** Classifies by error type only (never by message text). */
export function classifyFailure(error: unknown, provider: 'etsy' | 'printify'): FailureVerdict {
  if (error instanceof RateLimitedError) {
    return error.scope === 'day'
      ? { kind: 'wait-quota', retryAfterMs: error.retryAfterMs }
      : { kind: 'wait', retryAfterMs: error.retryAfterMs };
  }
  if (error instanceof ReauthRequiredError || error instanceof AuthError) return { kind: 'reconnect' };
  if (error instanceof ProviderError) {
    const code: SyncErrorCode = error.retryable ? 'provider_unavailable' : 'provider_rejected';
    const verdict = error.retryable ? 'retry' : 'give-up';
    return { kind: verdict, errorCode: code, message: userMessageFor(code, provider) };
  }
  // Our own trouble (PostgreSQL away, a bug): retried with back-off, failed after the last attempt.
  return { kind: 'retry', errorCode: 'internal', message: userMessageFor('internal', provider) };
}
