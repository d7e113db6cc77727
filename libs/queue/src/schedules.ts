import type { Queue } from 'bullmq';
import type { AppConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { jobOptionsFor, type JobName, type JobPayload } from './queue-contracts';

/** When a scheduled job runs: a fixed period, or a cron pattern (with its time zone). */
export type ScheduleTiming = { every: number } | { pattern: string; tz?: string };

/** One BullMQ job scheduler: `id` is stable, so however many processes upsert it, it exists once. */
export interface Schedule<Q extends QueueName = QueueName, J extends JobName<Q> = JobName<Q>> {
  id: string;
  queue: Q;
  job: J;
  timing: ScheduleTiming;
  data: JobPayload<Q, J>;
}

/** Typed row: the job must belong to the queue and the data must be its payload. */
function schedule<Q extends QueueName, J extends JobName<Q>>(row: Schedule<Q, J>): Schedule {
  return row as unknown as Schedule;
}

/**
 * The one table of schedules. A schedule only enqueues; the queue's workers do the work. Add a
 * row here (e.g. the nightly resync on `RESYNC_CRON`) and every process start and
 * `npm run schedulers` registers it; a row removed here is removed from Redis too.
 */
/** The ECB's time zone: its rates appear around 16:00 there, summer and winter. */
export const FX_RATES_TZ = 'Europe/Berlin';

export function schedulesFor(
  config: Pick<
    AppConfig,
    'DEMO_CLEANUP_EVERY_SECONDS' | 'SYNC_EVERY_MINUTES' | 'RESYNC_CRON' | 'RESYNC_TZ' | 'FX_RATES_CRON'
  >,
): Schedule[] {
  return [
    schedule({
      id: 'demo-cleanup',
      queue: 'maintenance',
      job: 'demo-cleanup',
      timing: { every: config.DEMO_CLEANUP_EVERY_SECONDS * 1000 },
      data: {},
    }),
    // The nightly resync: every connected shop, re-reading the look-back window of orders that may still change.
    // RESYNC_CRON=off: none (a Kubernetes CronJob or system cron runs `cli.js resync` instead).
    ...(config.RESYNC_CRON !== 'off'
      ? [
          schedule({
            id: 'nightly-resync',
            queue: 'maintenance',
            job: 'sync-fan-out',
            timing: { pattern: config.RESYNC_CRON, tz: config.RESYNC_TZ },
            data: { mode: 'nightly' },
          }),
        ]
      : []),
    ...(config.SYNC_EVERY_MINUTES > 0
      ? [
          schedule({
            id: 'incremental-sync',
            queue: 'maintenance',
            job: 'sync-fan-out',
            timing: { every: config.SYNC_EVERY_MINUTES * 60_000 },
            data: { mode: 'incremental' },
          }),
        ]
      : []),
    // Active runs whose job vanished (a Redis restart) get it back; runs failed past their stalls end as interrupted.
    schedule({
      id: 'sync-reconcile',
      queue: 'maintenance',
      job: 'sync-reconcile',
      timing: { every: 60_000 },
      data: {},
    }),
    // The ECB's daily rates after publication (the fx-rate worker also catches up at its start).
    ...(config.FX_RATES_CRON !== 'off'
      ? [
          schedule({
            id: 'fx-rates-daily',
            queue: 'fx-rate',
            job: 'refresh-rates',
            timing: { pattern: config.FX_RATES_CRON, tz: FX_RATES_TZ },
            data: { reason: 'schedule' },
          }),
        ]
      : []),
  ];
}

/**
 * Registers every schedule (idempotent: `upsertJobScheduler` with a stable id) and removes
 * schedulers on the same queues that the table no longer names. Returns the ids upserted.
 */
export async function upsertSchedulers(schedules: Schedule[], queueOf: (name: QueueName) => Queue): Promise<string[]> {
  // A queue whose last schedule was removed must still lose it from Redis: visit every queue that had one.
  for (const name of SCHEDULED_QUEUES)
    if (!schedules.some((row) => row.queue === name)) await removeAllSchedulers(queueOf(name));
  const byQueue = new Map<QueueName, Schedule[]>();
  for (const row of schedules) byQueue.set(row.queue, [...(byQueue.get(row.queue) ?? []), row]);
  for (const [name, rows] of byQueue) {
    const queue = queueOf(name);
    for (const row of rows) {
      const { attempts, backoff, removeOnComplete, removeOnFail } = jobOptionsFor(row.queue, row.job);
      await queue.upsertJobScheduler(row.id, row.timing, {
        name: row.job,
        data: row.data,
        opts: { attempts, backoff, removeOnComplete, removeOnFail },
      });
    }
    const wanted = new Set(rows.map((row) => row.id));
    for (const existing of await queue.getJobSchedulers()) {
      if (existing.key && !wanted.has(existing.key)) await queue.removeJobScheduler(existing.key);
    }
  }
  return schedules.map((row) => row.id);
}

/** Queues that may carry schedulers. */
const SCHEDULED_QUEUES: readonly QueueName[] = ['maintenance', 'fx-rate'];

async function removeAllSchedulers(queue: Queue): Promise<void> {
  for (const existing of await queue.getJobSchedulers()) if (existing.key) await queue.removeJobScheduler(existing.key);
}
