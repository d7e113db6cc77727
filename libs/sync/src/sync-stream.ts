import type { EntityManager } from 'typeorm';
import type { Provider, SyncMode, SyncStreamName } from '@pod/contracts';

/** What a stream knows about the run it serves. */
export interface SyncStreamContext {
  runId: string;
  userId: string;
  provider: Provider;
  shopId: string;
  mode: SyncMode;
  /** Aborted when the process is shutting down: finish (or abandon) the current fetch, nothing more. */
  signal: AbortSignal;
}

/** Rows a page wrote, for the run's counters and the "orders synced" announcement. */
export interface PageWriteResult {
  /** Orders (receipts / Printify orders) inserted. */
  ordersAdded: number;
  /** Orders whose stored version changed (an update in place). */
  ordersChanged: number;
  /** Every row written in any table (for metrics), including unchanged-skip = 0. */
  rowsWritten: number;
}

/**
 * One fetched page, not yet stored. The driver opens one transaction, calls `write`, moves the
 * cursor to `next` (compare-and-set) and records the page on the run; all commit or none does.
 */
export interface FetchedPage<Position> {
  /** Where the stream stands once this page is stored. */
  next: Position;
  /** True when this run has nothing more to read on this stream. */
  done: boolean;
  /** Provider requests this page took (pages, plus e.g. payments fetched for its receipts). */
  requests: number;
  /** The stream's estimate of its own pages in all (the runner makes the run's progress of it: runPagesEstimate); null if unknown. */
  expectedPages: number | null;
  /** Stores the page's rows in the driver's transaction. Must be idempotent (upserts by natural key). */
  write(tx: EntityManager): Promise<PageWriteResult>;
}

/**
 * A provider stream walked page by page (etsy:receipts, etsy:ledger, printify:orders). The
 * position is the stream's own JSON (stored in sync_cursor.position). A stream never writes to
 * the database outside `write`, and never holds a transaction open across a provider call.
 */
export interface SyncStream<Position> {
  readonly name: SyncStreamName;
  /** The position of a stream never synced for this shop. */
  initial(ctx: SyncStreamContext): Position;
  /**
   * Called once when a run reaches this stream with the stored position. Return the position
   * to start from: typically "begin a new pass from the watermark minus the look-back
   * overlap" when the stored position is idle, or the stored position unchanged when a pass
   * was interrupted mid-way (a crash resumes it). The driver stores it with the first page.
   */
  begin(ctx: SyncStreamContext, stored: Position): Position;
  /** Fetches the page at `position`. Provider errors are thrown as they come (the driver classifies them). */
  fetchPage(ctx: SyncStreamContext, position: Position): Promise<FetchedPage<Position>>;
}
