import type { Provider } from './providers';

/**
 * The streams a sync run walks, in order, per provider. Each stream has its own cursor row
 * (`sync_cursor`) so a crash resumes the stream where its last committed page left it.
 */
export const SYNC_STREAMS = {
  etsy: ['etsy:receipts', 'etsy:ledger'],
  printify: ['printify:orders'],
} as const satisfies Record<Provider, readonly string[]>;

export type SyncStreamName = (typeof SYNC_STREAMS)[Provider][number];

/**
 * queued → running ⇄ waiting_for_quota → succeeded | failed | interrupted.
 * `interrupted`: the job stalled past maxStalledCount; the next trigger resumes from the cursor.
 * At most one run per (user, provider) is in an active state (a partial unique index).
 */
export const SYNC_RUN_STATUSES = [
  'queued',
  'running',
  'waiting_for_quota',
  'succeeded',
  'failed',
  'interrupted',
] as const;
export type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];
export const ACTIVE_SYNC_RUN_STATUSES = [
  'queued',
  'running',
  'waiting_for_quota',
] as const satisfies readonly SyncRunStatus[];

export function isActiveSyncRunStatus(status: SyncRunStatus): boolean {
  return (ACTIVE_SYNC_RUN_STATUSES as readonly string[]).includes(status);
}

/**
 * What started a run. `incremental` walks from the cursor (with its look-back overlap);
 * `nightly` also re-reads the look-back window of orders that may still change.
 */
export const SYNC_TRIGGERS = ['user', 'schedule', 'nightly', 'connect', 'demo', 'operator'] as const;
export type SyncTrigger = (typeof SYNC_TRIGGERS)[number];

export const SYNC_MODES = ['incremental', 'nightly'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/** Why a run failed, for people (the UI maps each to a sentence) and for metrics. */
export const SYNC_ERROR_CODES = [
  'needs_reconnecting', // invalid_grant / 401: the seller must connect again
  'provider_unavailable', // retries exhausted on 5xx, timeouts, resets
  'provider_rejected', // a 4xx we cannot fix by retrying, or an unusable payload
  'connection_missing', // the connection was removed while the run waited
  'internal',
] as const;
export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];
