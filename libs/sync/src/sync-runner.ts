import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import {
  EVENT_NAMES,
  isQueueName,
  type ConnectionStatus,
  type EventPayloads,
  type Provider,
  type SyncErrorCode,
} from '@pod/contracts';
import {
  SyncCursorsRepository,
  SyncRunsRepository,
  UserDataDeletedError,
  UserDataRepository,
  withTransaction,
  type CursorKey,
  type SyncRun,
} from '@pod/db';
import { isDatabaseUnavailable, loggableErrorMessage } from '@pod/observability';
import { jobDataProblem, type SyncRunPayload, type SyncRunResult } from '@pod/queue';
import { classifyFailure, LostOwnershipError, ShutdownRequestedError, userMessageFor } from './sync-errors';
import { runPagesEstimate } from './run-page-estimate';
import type { SyncStream, SyncStreamContext } from './sync-stream';

/** The connection disappeared (disconnected) or is not usable: the run fails, unrecoverably. */
export class ConnectionMissingError extends Error {
  constructor(provider: Provider) {
    super(`sync: the ${provider} connection is gone or belongs to another shop`);
    this.name = 'ConnectionMissingError';
  }
}

/** The driver's envelope around a stream's own position, stored in sync_cursor.position. */
interface CursorEnvelope<Position> {
  stream: Position;
  /** The run that finished this stream's pass; a retry of that run skips the stream. */
  completedByRun: string | null;
}

export interface SyncRunnerLogger {
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
}

export interface SyncRunnerDeps {
  dataSource: DataSource;
  /** Marks a connection reauth_required (Etsy) or expired (Printify). */
  markConnection(userId: string, provider: Provider, status: ConnectionStatus): Promise<void>;
  publish<N extends keyof EventPayloads>(name: N, payload: EventPayloads[N]): Promise<unknown>;
  /**
   * Queues the user's match run (or joins the queued one) and its job, after the run wrote
   * orders: `orders.synced` is only a hint, lost when no gateway listens (ADR 0037). Throws when
   * PostgreSQL or Redis does not take it; the runner logs that and goes on.
   */
  queueMatch(userId: string): Promise<unknown>;
  logger: SyncRunnerLogger;
  /** Aborted when the process shuts down: the run stops after the page it is committing. */
  shutdown: AbortSignal;
  /** Metrics hook per committed page (ProcessMetrics.onSyncPage): orders added and changed, rows written in all. */
  onPage?(provider: Provider, stream: string, added: number, changed: number, rowsWritten?: number): void;
  /**
   * Called before each page is fetched, outside any transaction (the worker keeps the planner's
   * statistics of the synced tables fresh during a bulk sync: TableStatisticsRepository). A
   * failure here is logged and does not stop the run.
   */
  beforePage?(): Promise<unknown>;
  /** Test hook: throws at a named point to prove atomicity (security plan item 2). */
  faultPoint?(point: 'after-fetch' | 'mid-write' | 'before-cursor' | 'after-commit'): void;
  now?: () => number;
}

export type StreamFactory = (run: SyncRun, signal: AbortSignal) => Promise<SyncStream<unknown>[]>;

interface RunState {
  version: number;
  /** The user's data epoch when the run was taken: each page's write checks it (ADR 0036). */
  epoch: number;
  added: number;
  changed: number;
  pages: number;
  /** Written since the last `orders.synced`: orders added and changed, and every row (a ledger page changes no order). */
  unannounced: { added: number; changed: number; rows: number };
}

const NOTHING_WRITTEN = { added: 0, changed: 0, rows: 0 } as const;

/** How long a run waits (delayed, no attempt spent) before trying PostgreSQL again. */
const DATABASE_RETRY_MS = 2_000;

/**
 * PostgreSQL unreachable or refusing connections (security plan item 37): the run waits for it
 * however long it takes, spending no attempt, instead of failing after its five. A statement
 * cancelled by statement_timeout (57014) is not an outage: a page that keeps timing out must
 * still run out of attempts.
 */
function postgresAway(error: unknown): boolean {
  const codes = [error, (error as { driverError?: unknown } | null)?.driverError].map(
    (e) => (e as { code?: unknown } | null | undefined)?.code,
  );
  return isDatabaseUnavailable(error) && !codes.includes('57014');
}

/**
 * Runs one `sync` job: the sync_run it names, stream after stream, page after page, each page's
 * rows + the cursor + the run's counters in one transaction under compare-and-set. Safe to run
 * twice (a stalled job, a duplicate): the second finds the versions moved and stops, or finds
 * the run finished and does nothing.
 */
export class SyncRunner {
  private readonly runs: SyncRunsRepository;
  private readonly now: () => number;

  constructor(private readonly deps: SyncRunnerDeps) {
    this.runs = new SyncRunsRepository(deps.dataSource);
    this.now = deps.now ?? Date.now;
  }

  async run(job: Job<SyncRunPayload>, token: string | undefined, streamsFor: StreamFactory): Promise<SyncRunResult> {
    const { runId } = job.data;
    const started = await this.take(runId).catch((error: unknown) => this.waitForPostgres(job, token, runId, error));
    if (!started) return this.resultOf(runId);
    const { taken, epoch } = started;
    const state: RunState = {
      version: taken.version,
      epoch,
      added: 0,
      changed: 0,
      pages: 0,
      unannounced: NOTHING_WRITTEN,
    };
    try {
      const streams = await streamsFor(taken, this.deps.shutdown);
      for (const [index, stream] of streams.entries()) {
        await this.walk(taken, stream, state, { index, count: streams.length });
        // Each stream announces what it wrote when it ends, not only the run: the receipts are
        // matched and figured (fees estimated) while the ledger is walked, which on a big shop
        // takes minutes, and the ledger's own rows (fees, payments) reach the figures even when
        // a resync brings no changed order. The last one too, before the run reads as finished:
        // the status's `settling` then sees the sync active, then the match run queued, with no
        // moment between them that reads "settled".
        await this.announce(taken, state);
      }
      const finished = await withTransaction(this.deps.dataSource, (tx) =>
        new SyncRunsRepository(tx).finish(runId, state.version),
      );
      if (finished === null) throw new LostOwnershipError('run');
      this.deps.logger.info(
        {
          event: 'sync.finished',
          runId,
          provider: taken.provider,
          pages: state.pages,
          added: state.added,
          changed: state.changed,
        },
        'sync finished',
      );
      return this.resultOf(runId);
    } catch (error) {
      // The user's data was deleted meanwhile: what this run wrote is gone, nothing to match.
      if (!(error instanceof UserDataDeletedError)) await this.announce(taken, state);
      return this.onFailure(job, token, taken, state.version, error);
    }
  }

  /** Marks the run running and reads the user's data epoch; null when there is nothing to run. */
  private async take(runId: string): Promise<{ taken: SyncRun; epoch: number } | null> {
    const taken = await this.runs.markRunning(runId);
    if (!taken) return null;
    // Read after the run is taken: a Delete All Data committed before this read removed the run
    // too, so the first page's compare-and-set fails; one committed after moves the epoch.
    const epoch = await new UserDataRepository(this.deps.dataSource).epochOf(taken.userId);
    return epoch === null ? null : { taken, epoch };
  }

  /** Back to the queue for DATABASE_RETRY_MS when PostgreSQL is away (no attempt spent); rethrows anything else. */
  private async waitForPostgres(
    job: Job<SyncRunPayload>,
    token: string | undefined,
    runId: string,
    error: unknown,
  ): Promise<never> {
    if (!postgresAway(error)) throw error;
    this.deps.logger.warn(
      { event: 'sync.waiting_for_database', runId, jobId: job.id, reason: describe(error) },
      'PostgreSQL is unavailable; the run waits and goes on from its cursor',
    );
    return this.delay(job, token, DATABASE_RETRY_MS);
  }

  private async walk(
    run: SyncRun,
    stream: SyncStream<unknown>,
    state: RunState,
    /** Which of the run's streams this is, for the progress estimate. */
    place: { index: number; count: number },
  ): Promise<void> {
    let streamPages = 0;
    const ctx: SyncStreamContext = {
      runId: run.id,
      userId: run.userId,
      provider: run.provider,
      shopId: run.shopId,
      mode: run.mode,
      signal: this.deps.shutdown,
    };
    const key: CursorKey = { userId: run.userId, provider: run.provider, shopId: run.shopId, stream: stream.name };
    const stored = await new SyncCursorsRepository(this.deps.dataSource).read<CursorEnvelope<unknown>>(key);
    if (stored?.position.completedByRun === run.id) return;
    let cursorVersion = stored?.version ?? 0;
    let position = stream.begin(ctx, stored ? stored.position.stream : stream.initial(ctx));
    for (;;) {
      if (this.deps.shutdown.aborted) throw new ShutdownRequestedError();
      await this.deps
        .beforePage?.()
        .catch((error: unknown) =>
          this.deps.logger.warn(
            { event: 'sync.before_page_failed', runId: run.id, error: describe(error) },
            'page preparation failed; the run goes on',
          ),
        );
      // Shutting down abandons the fetch (its calls see the same signal): nothing of the page is
      // written yet, so the job goes back at once instead of waiting out a hang, a back-off or a
      // rate-limit wait past the shutdown bound.
      const page = await stream.fetchPage(ctx, position).catch((error: unknown) => {
        throw this.deps.shutdown.aborted ? new ShutdownRequestedError() : error;
      });
      this.deps.faultPoint?.('after-fetch');
      const envelope: CursorEnvelope<unknown> = { stream: page.next, completedByRun: page.done ? run.id : null };
      const committed = await withTransaction(this.deps.dataSource, async (tx) => {
        // First: holds the user's row, so a Delete All Data waits for this page or this page for it.
        await new UserDataRepository(tx).hold(run.userId, state.epoch);
        const written = await page.write(tx);
        this.deps.faultPoint?.('mid-write');
        this.deps.faultPoint?.('before-cursor');
        if (!(await new SyncCursorsRepository(tx).advance(key, cursorVersion, envelope, run.id)))
          throw new LostOwnershipError('cursor');
        const version = await new SyncRunsRepository(tx).recordPage(run.id, state.version, {
          stream: stream.name,
          pages: 1,
          added: written.ordersAdded,
          changed: written.ordersChanged,
          requests: page.requests,
          expectedPages: runPagesEstimate({
            runPagesDone: run.pagesDone + state.pages + 1,
            streamPagesDone: streamPages + 1,
            streamExpectedPages: page.expectedPages,
            streamIndex: place.index,
            streamCount: place.count,
          }),
        });
        if (version === null) throw new LostOwnershipError('run');
        return { written, version };
      });
      this.deps.faultPoint?.('after-commit');
      cursorVersion += 1;
      state.version = committed.version;
      state.pages += 1;
      streamPages += 1;
      state.added += committed.written.ordersAdded;
      state.changed += committed.written.ordersChanged;
      state.unannounced = {
        added: state.unannounced.added + committed.written.ordersAdded,
        changed: state.unannounced.changed + committed.written.ordersChanged,
        rows: state.unannounced.rows + committed.written.rowsWritten,
      };
      this.deps.onPage?.(
        run.provider,
        stream.name,
        committed.written.ordersAdded,
        committed.written.ordersChanged,
        committed.written.rowsWritten,
      );
      if (page.done) return;
      position = page.next;
    }
  }

  /**
   * Called for every failed attempt of a `sync` job. When the job has failed for good while its
   * run is still active, no runner code saw the end: BullMQ failed it past its stalls (the worker
   * holding it died or froze on each try). The run is interrupted at once, so the seller's next
   * trigger starts a run that resumes from the cursors instead of meeting this dead one as
   * "running" until the reconciler's sweep (which stays the fallback when this is missed).
   */
  afterFailedAttempt(job: Job | undefined): void {
    if (job?.name !== 'sync') return;
    // A job refused for its data names no run we may touch (its runId is untrusted).
    if (!isQueueName(job.queueName) || jobDataProblem(job.queueName, 'sync', job.data) !== null) return;
    const { runId } = job.data as SyncRunPayload;
    void (async () => {
      if ((await job.getState()) !== 'failed') return;
      if ((await this.runs.interrupt(runId)) === null) return;
      this.deps.logger.warn(
        { event: 'sync.interrupted', runId, jobId: job.id, reason: job.failedReason },
        'the sync job failed outside the run (stalled); the run is interrupted',
      );
    })().catch((error: unknown) =>
      this.deps.logger.warn(
        { event: 'sync.interrupt_failed', runId, reason: describe(error) },
        'could not interrupt the run; the reconciler will',
      ),
    );
  }

  private async onFailure(
    job: Job<SyncRunPayload>,
    token: string | undefined,
    run: SyncRun,
    version: number,
    error: unknown,
  ): Promise<SyncRunResult> {
    const log = { runId: run.id, provider: run.provider, jobId: job.id };
    if (error instanceof LostOwnershipError) {
      this.deps.logger.warn(
        { ...log, event: 'sync.lost_ownership', what: error.what },
        'another worker owns this run; stopping',
      );
      return this.resultOf(run.id);
    }
    if (error instanceof UserDataDeletedError) {
      this.deps.logger.info(
        { ...log, event: 'sync.data_deleted' },
        "the user's data was deleted; the run stops without writing",
      );
      return this.resultOf(run.id);
    }
    if (error instanceof ShutdownRequestedError) {
      this.deps.logger.info({ ...log, event: 'sync.handed_back' }, 'shutting down: the run continues from its cursor');
      await this.delay(job, token, 0);
    }
    if (error instanceof ConnectionMissingError) {
      await this.runs.fail(run.id, null, 'connection_missing', userMessageFor('connection_missing', run.provider));
      throw new UnrecoverableError(error.message);
    }
    // Before the verdict: recording a failure would need PostgreSQL too.
    if (postgresAway(error)) return this.waitForPostgres(job, token, run.id, error);
    const verdict = classifyFailure(error, run.provider);
    switch (verdict.kind) {
      case 'wait-quota': {
        const resumeAt = new Date(this.now() + verdict.retryAfterMs);
        await this.runs.waitForQuota(run.id, version, resumeAt);
        this.deps.logger.warn(
          { ...log, event: 'sync.waiting_for_quota', resumeAt: resumeAt.toISOString() },
          'daily quota spent; the run waits',
        );
        return this.delay(job, token, verdict.retryAfterMs);
      }
      case 'wait':
        this.deps.logger.info(
          { ...log, event: 'sync.rate_limited', retryAfterMs: verdict.retryAfterMs },
          'rate limited; the run waits',
        );
        return this.delay(job, token, verdict.retryAfterMs);
      case 'reconnect':
        await this.deps.markConnection(
          run.userId,
          run.provider,
          run.provider === 'etsy' ? 'reauth_required' : 'expired',
        );
        await this.runs.fail(run.id, null, 'needs_reconnecting', userMessageFor('needs_reconnecting', run.provider));
        this.deps.logger.warn(
          { ...log, event: 'sync.needs_reconnecting' },
          'the provider refused the credentials; the seller must reconnect',
        );
        throw new UnrecoverableError('the seller must reconnect');
      case 'give-up':
        await this.runs.fail(run.id, null, verdict.errorCode, verdict.message);
        throw new UnrecoverableError(describe(error));
      case 'retry': {
        const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (lastAttempt) await this.runs.fail(run.id, null, verdict.errorCode as SyncErrorCode, verdict.message);
        throw error;
      }
    }
  }

  /** Back to the queue without spending an attempt (BullMQ's manual delay). */
  private async delay(job: Job<SyncRunPayload>, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(this.now() + Math.max(0, ms), token);
    throw new DelayedError();
  }

  /**
   * What the run wrote since its last announcement, if anything: the user's match run queued by
   * the runner itself, then `orders.synced` (a hint: the gateway's listener joins that run).
   */
  private async announce(run: SyncRun, state: RunState): Promise<void> {
    const { added, changed, rows } = state.unannounced;
    if (added + changed + rows === 0) return;
    state.unannounced = NOTHING_WRITTEN;
    await this.deps.queueMatch(run.userId).catch((error: unknown) => {
      // The next sync, a webhook refresh or "Match Orders" queues it again; the sync itself stands.
      this.deps.logger.warn(
        { event: 'sync.match_queue_failed', runId: run.id, userId: run.userId, reason: describe(error) },
        'could not queue a match run after writing orders',
      );
    });
    await this.deps
      .publish(EVENT_NAMES.ordersSynced, {
        userId: run.userId,
        provider: run.provider,
        shopId: run.shopId,
        syncRunId: run.id,
        ordersAdded: added,
        ordersChanged: changed,
        syncedAt: new Date(this.now()).toISOString(),
      })
      .catch(() => undefined);
  }

  private async resultOf(runId: string): Promise<SyncRunResult> {
    const run = await this.runs.findById(runId);
    return {
      runId,
      status: run?.status ?? 'failed',
      pagesDone: run?.pagesDone ?? 0,
      ordersDone: (run?.ordersAdded ?? 0) + (run?.ordersChanged ?? 0),
    };
  }
}

/** The reason BullMQ keeps (and logs) for a given-up job: a PostgreSQL error's code and statement, never its message. */
function describe(error: unknown): string {
  return error instanceof Error ? loggableErrorMessage(error) : 'unknown error';
}
