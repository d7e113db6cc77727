import type { Job, JobsOptions } from 'bullmq';
import type { DataCheck } from './job-data';

/**
 * One job of a queue: its payload and result types (carried only at type level) and what
 * differs from the queue's defaults. Payloads hold ids and small values only — never
 * entities, tokens or personal data: job data sits in Redis, readable by anyone with access.
 */
export interface JobSpec<Payload, Result> {
  /** Type-level only; never set at run time. */
  readonly __types?: { payload: Payload; result: Result };
  /** Overrides of the queue's job defaults for this job (e.g. fewer attempts). */
  readonly options?: Partial<
    Pick<JobsOptions, 'attempts' | 'backoff' | 'removeOnComplete' | 'removeOnFail' | 'priority'>
  >;
  /**
   * What the job's data must be; every worker checks it before any I/O and fails a job that
   * does not pass as unrecoverable (see jobDataProblem). Required: a job without one won't compile.
   */
  readonly data: DataCheck;
  /** Set when the operator view may enqueue this job: builds its payload from the clock. */
  readonly operatorPayload?: (now: Date) => Payload;
}

export function jobSpec<Payload, Result>(spec: Omit<JobSpec<Payload, Result>, '__types'>): JobSpec<Payload, Result> {
  return spec;
}

export type AnyJobSpec = JobSpec<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export type PayloadOf<S> = S extends JobSpec<infer P, unknown> ? P : never;
export type ResultOf<S> = S extends JobSpec<unknown, infer R> ? R : never;

/** A BullMQ job typed by its spec. */
export type JobOf<S, Name extends string> = Job<PayloadOf<S>, ResultOf<S>, Name>;
