/** Shapes of the routes under /api/sync. */
import type { Provider } from '../providers';
import type { SyncErrorCode, SyncRunStatus, SyncStreamName, SyncTrigger } from '../sync';

/**
 * POST /api/sync/etsy (no body) and POST /api/sync/printify ({shopId} or {}): 202 with the
 * run that is now queued or already active for that connection (`alreadyRunning` true then).
 * 404 `not_found` when the shop is not one of the user's; 409 `conflict` when the provider
 * is not connected or needs reconnecting.
 */
export interface SyncStartResponse {
  run: SyncRunView;
  alreadyRunning: boolean;
}

export interface SyncRunView {
  id: string;
  provider: Provider;
  shopId: string;
  status: SyncRunStatus;
  trigger: SyncTrigger;
  /** The stream being walked now (null before the first page and after the end). */
  stream: SyncStreamName | null;
  /** Pages committed so far (all streams). */
  pagesDone: number;
  /** Orders (Etsy receipts or Printify orders) written so far, new or changed. */
  ordersDone: number;
  ordersAdded: number;
  ordersChanged: number;
  /**
   * A rough 0–100 for the progress bar: from the provider's reported totals where it gives
   * them, else null (the UI shows an indeterminate bar).
   */
  percent: number | null;
  /** ISO 8601: with `waiting_for_quota`, when the provider's quota lets the run go on. */
  resumeAt: string | null;
  errorCode: SyncErrorCode | null;
  /** A sentence for the user; never provider internals. */
  errorMessage: string | null;
  /** ISO 8601. */
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/**
 * GET /api/sync/status: the latest run per provider (null if none ever ran), whether any is
 * active, and whether the user's figures are still settling (the web app polls only while
 * `settling`).
 */
export interface SyncStatusResponse {
  etsy: SyncRunView | null;
  printify: SyncRunView | null;
  active: boolean;
  /**
   * A sync run is active, or a match run or a profit computation of the user is queued or
   * running: the order figures may still change (Etsy's fees arrive with the ledger, after the
   * receipts). False once every run the seller (or a sync) started has finished.
   */
  settling: boolean;
}
