import type { JobsOptions } from 'bullmq';
import { SYNC_MODES, type PingRequester, type QueueName, type SyncMode, type SyncRunStatus } from '@pod/contracts';
import { field, noData, optional, shape } from './job-data';
import { jobSpec, type AnyJobSpec, type JobOf, type PayloadOf, type ResultOf } from './job-spec';

/** What every queue must declare. */
export interface QueueContract {
  readonly jobs: Readonly<Record<string, AnyJobSpec>>;
  readonly worker: {
    /** Jobs one process runs at once unless WORKER_CONCURRENCY says otherwise. */
    readonly concurrency: number;
    /** A job's lock; renewed every half while the event loop is free. Past it, the job counts as stalled. */
    readonly lockDuration: number;
    /** How often a worker looks for stalled jobs (those whose worker died). */
    readonly stalledInterval: number;
    /** Stalls tolerated before the job fails instead of being run again. */
    readonly maxStalledCount: number;
  };
  readonly jobDefaults: Required<Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail'>>;
}

export interface PingPayload {
  /** ISO 8601. */
  requestedAt: string;
  requestedBy: PingRequester;
}

export interface PingResult {
  queue: QueueName;
  /** hostname:pid of the process that ran the job. */
  worker: string;
  /** ISO 8601. */
  completedAt: string;
}

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

/**
 * Completed jobs matter only for a few hours (the UI reads run rows in PostgreSQL, never
 * BullMQ); failed ones stay a week for the operator to inspect and retry. Both are bounded
 * so Redis memory stays flat.
 */
const RETENTION = {
  removeOnComplete: { age: 6 * HOUR_S, count: 1_000 },
  removeOnFail: { age: 7 * DAY_S, count: 10_000 },
} as const;

/** Transient failures retry with exponential back-off; jitter spreads replicas' retries apart. */
const RETRIES = { attempts: 5, backoff: { type: 'exponential', delay: 2_000, jitter: 0.5 } } as const;

/** A no-op that proves a worker of the queue is alive and consuming. */
const ping = jobSpec<PingPayload, PingResult>({
  data: shape({ requestedAt: field.isoTime, requestedBy: field.oneOf(['operator', 'test'] satisfies PingRequester[]) }),
  options: { attempts: 1 },
  operatorPayload: (now) => ({ requestedAt: now.toISOString(), requestedBy: 'operator' }),
});

/** Removes expired demo accounts and their sandbox sellers; the next run retries what failed. */
const demoCleanup = jobSpec<Record<string, never>, DemoCleanupResult>({ data: noData, options: { attempts: 1 } });

export interface DemoCleanupResult {
  removed: number;
}

/**
 * Walks one sync run (a `sync_run` row, whose id is also the job id) stream by stream, page by
 * page, from the cursors in PostgreSQL. Run again after a crash or a stall, it resumes from
 * the last committed page; run for a finished run, it does nothing.
 */
export interface SyncRunPayload {
  runId: string;
}

export interface SyncRunResult {
  runId: string;
  status: SyncRunStatus;
  pagesDone: number;
  ordersDone: number;
}

const syncRun = jobSpec<SyncRunPayload, SyncRunResult>({ data: shape({ runId: field.uuid }) });

/** A webhook named one Etsy receipt: fetch it (and its payment) and upsert it. */
export interface RefreshReceiptPayload {
  userId: string;
  shopId: string;
  receiptId: string;
}

/** A webhook named one Printify order: fetch it and upsert it. */
export interface RefreshOrderPayload {
  userId: string;
  shopId: string;
  orderId: string;
}

export interface RefreshResult {
  /** 'added' | 'changed' | 'unchanged' | 'skipped' (no such connection or shop any more). */
  outcome: 'added' | 'changed' | 'unchanged' | 'skipped';
}

const refreshReceipt = jobSpec<RefreshReceiptPayload, RefreshResult>({
  data: shape({ userId: field.uuid, shopId: field.numericId, receiptId: field.numericId }),
});
const refreshOrder = jobSpec<RefreshOrderPayload, RefreshResult>({
  data: shape({ userId: field.uuid, shopId: field.numericId, orderId: field.tokenId }),
});

/** Starts a run for every connected connection (skipping those with one active). */
export interface SyncFanOutPayload {
  mode: SyncMode;
}

export interface SyncFanOutResult {
  started: number;
  alreadyActive: number;
}

const syncFanOut = jobSpec<SyncFanOutPayload, SyncFanOutResult>({
  data: shape({ mode: field.oneOf(SYNC_MODES) }),
  options: { attempts: 3 },
});

/** Why the fx rates are being refreshed: the worker starting, the daily scheduler, or an operator. */
export const FX_REFRESH_REASONS = ['startup', 'schedule', 'operator'] as const;
export type FxRefreshReason = (typeof FX_REFRESH_REASONS)[number];

export interface FxRefreshPayload {
  reason: FxRefreshReason;
}

/** Which ECB file a refresh read, and what it changed in fx_rate. */
export interface FxRefreshResult {
  file: 'daily' | 'last90Days' | 'historyZip';
  days: number;
  inserted: number;
  changed: number;
  unchanged: number;
  /** The newest ECB day stored after the refresh. */
  latestDate: string | null;
}

/**
 * Brings fx_rate up to date from the ECB: the whole history when the table is empty, the
 * 90-day file when business days are missing since the last stored one, else the daily file.
 * Idempotent (only new or changed values are written); retried slowly, the next run catches up.
 */
const refreshRates = jobSpec<FxRefreshPayload, FxRefreshResult>({
  data: shape({ reason: field.oneOf(FX_REFRESH_REASONS) }),
  options: { attempts: 4, backoff: { type: 'exponential', delay: 30_000, jitter: 0.5 } },
  operatorPayload: () => ({ reason: 'operator' }),
});

/** Re-enqueues active runs whose job is gone (a Redis restart, a failed enqueue). */
const syncReconcile = jobSpec<Record<string, never>, { requeued: number; interrupted: number }>({
  data: noData,
  options: { attempts: 1 },
});

/**
 * Matches one user's receipts and Printify orders (a `match_run` row, whose id is also the job
 * id; at most one run per user is queued, so the job is deduplicated per user). Run again after
 * a crash it starts over: the diff it writes is idempotent.
 */
export interface MatchUserPayload {
  runId: string;
}

export interface MatchUserResult {
  runId: string;
  /** 'skipped': the run had already finished (a duplicate or late job). */
  status: 'succeeded' | 'skipped';
  added: number;
  changed: number;
  removed: number;
}

const matchUser = jobSpec<MatchUserPayload, MatchUserResult>({ data: shape({ runId: field.uuid }) });

/**
 * Recomputes one user's stored profits (order_profit) from the synced rows and the stored
 * rates, writing only what changed. Deduplicated per user (see computeProfitsJobOptions): one
 * waiting job at most, and a trigger while one runs queues exactly one more.
 */
export const COMPUTE_PROFITS_REASONS = ['matched', 'record_changed', 'rates', 'operator', 'settings'] as const;
export type ComputeProfitsReason = (typeof COMPUTE_PROFITS_REASONS)[number];
export interface ComputeProfitsPayload {
  userId: string;
  /** What asked: a match run, the user's change to a record, new ECB rates, the operator, the user's profit settings. */
  reason: ComputeProfitsReason;
  /** Recompute even records whose inputs did not change (new rates may change their figures). */
  force?: boolean;
}
export interface ComputeProfitsResult {
  userId: string;
  records: number;
  computed: number;
  written: number;
}
const computeProfits = jobSpec<ComputeProfitsPayload, ComputeProfitsResult>({
  data: shape({ userId: field.uuid, reason: field.oneOf(COMPUTE_PROFITS_REASONS), force: optional(field.boolean) }),
});

/**
 * The BullMQ options that make compute-profits one waiting job per user (keepLastIfActive: a
 * trigger during a run is not lost). Every trigger queues a plain run; a forced one (payload
 * `force`) is only ever added by hand, with its own job id.
 */
export function computeProfitsJobOptions(userId: string): { deduplication: { id: string; keepLastIfActive: true } } {
  return { deduplication: { id: `compute-profits:${userId}`, keepLastIfActive: true } };
}

/**
 * New ECB rates were stored: queue compute-profits for every user with a record
 * waiting for a rate or dated after the latest rate stored before (`previousLatestRateDate`,
 * null when the table was empty). The fx-rate worker enqueues it after an upsert that added rates.
 */
export interface RefigureProfitsPayload {
  previousLatestRateDate: string | null;
}
const refigureProfits = jobSpec<RefigureProfitsPayload, { usersQueued: number }>({
  data: shape({ previousLatestRateDate: field.isoDateOrNull }),
});

/**
 * The one table of queue contracts. `satisfies` makes a queue named in @pod/contracts
 * without its row here a compile error; a worker refuses to start when a job of its
 * queue has no handler (see missingHandlers).
 */
export const QUEUE_CONTRACTS = {
  // Provider calls are rate-limited per connection, so few jobs at once per process.
  'etsy-sync': {
    jobs: { ping, sync: syncRun, 'refresh-receipt': refreshReceipt },
    worker: { concurrency: 2, lockDuration: 30_000, stalledInterval: 30_000, maxStalledCount: 1 },
    jobDefaults: { ...RETRIES, ...RETENTION },
  },
  'printify-sync': {
    jobs: { ping, sync: syncRun, 'refresh-order': refreshOrder },
    worker: { concurrency: 2, lockDuration: 30_000, stalledInterval: 30_000, maxStalledCount: 1 },
    jobDefaults: { ...RETRIES, ...RETENTION },
  },
  // A match run commits one diff per user; runs are CPU-bound, so one at a time.
  matcher: {
    jobs: { ping, 'match-user': matchUser, 'compute-profits': computeProfits, 'refigure-profits': refigureProfits },
    worker: { concurrency: 1, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 1 },
    jobDefaults: { ...RETRIES, ...RETENTION },
  },
  // A few ECB fetches a day. Two at once so a ping is never stuck behind a slow download;
  // refreshes are deduplicated and their upserts idempotent, so two never conflict.
  'fx-rate': {
    jobs: { ping, 'refresh-rates': refreshRates },
    worker: { concurrency: 2, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 1 },
    jobDefaults: { ...RETRIES, ...RETENTION },
  },
  // Housekeeping run by job schedulers (see schedules.ts), consumed by the gateway process:
  // its jobs need the gateway's demo services. A missed run is made up by the next one.
  maintenance: {
    jobs: { ping, 'demo-cleanup': demoCleanup, 'sync-fan-out': syncFanOut, 'sync-reconcile': syncReconcile },
    worker: { concurrency: 1, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 1 },
    jobDefaults: { ...RETRIES, ...RETENTION },
  },
} satisfies { readonly [Q in QueueName]: QueueContract };

type Contracts = typeof QUEUE_CONTRACTS;
type JobsOf<Q extends QueueName> = Contracts[Q]['jobs'];

export type JobName<Q extends QueueName> = keyof JobsOf<Q> & string;
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = PayloadOf<JobsOf<Q>[J]>;
export type JobResult<Q extends QueueName, J extends JobName<Q>> = ResultOf<JobsOf<Q>[J]>;
export type QueueJob<Q extends QueueName, J extends JobName<Q> = JobName<Q>> = JobOf<JobsOf<Q>[J], J>;

/** One handler per job of the queue: leaving one out is a compile error. */
export type JobHandlers<Q extends QueueName> = {
  readonly [J in JobName<Q>]: (job: QueueJob<Q, J>, token?: string) => Promise<JobResult<Q, J>>;
};

export function contractOf(queue: QueueName): QueueContract {
  return QUEUE_CONTRACTS[queue];
}

export function jobNamesOf(queue: QueueName): string[] {
  return Object.keys(QUEUE_CONTRACTS[queue].jobs);
}

export function isJobName<Q extends QueueName>(queue: Q, name: string): name is JobName<Q> {
  return Object.prototype.hasOwnProperty.call(QUEUE_CONTRACTS[queue].jobs, name);
}

/** Job names of the queue with no function in `handlers`; a worker must refuse to start if any. */
export function missingHandlers(queue: QueueName, handlers: Readonly<Record<string, unknown>>): string[] {
  return jobNamesOf(queue).filter((name) => typeof handlers[name] !== 'function');
}

/** The queue's job defaults merged with the job's own overrides, for Queue.add. */
export function jobOptionsFor<Q extends QueueName>(queue: Q, name: JobName<Q>): JobsOptions {
  const contract = contractOf(queue);
  return { ...contract.jobDefaults, ...(contract.jobs[name]?.options ?? {}) };
}

/** Jobs the operator view may enqueue, with a payload factory each. */
export function operatorJob(queue: QueueName, name: string): { payload: (now: Date) => unknown } | undefined {
  if (!isJobName(queue, name)) return undefined;
  const factory = contractOf(queue).jobs[name].operatorPayload;
  return factory ? { payload: factory } : undefined;
}

export function operatorJobNames(queue: QueueName): string[] {
  return jobNamesOf(queue).filter((name) => operatorJob(queue, name));
}

/**
 * Why the job's data does not match its queue contract (a short reason naming the field, never
 * its value), or null when it does. An unknown job name is a problem too.
 */
export function jobDataProblem(queue: QueueName, name: string, data: unknown): string | null {
  if (!isJobName(queue, name)) return `no job of that name on queue ${queue}`;
  const problem = contractOf(queue).jobs[name].data(data);
  return problem === null ? null : `invalid job data for ${queue}/${name}: ${problem}`;
}
