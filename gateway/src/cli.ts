import 'reflect-metadata';
import { Queue, QueueEvents } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { createDatabaseIfMissing, prepareDatabase } from '@pod/db';
import {
  bullConnection,
  bullPrefix,
  jobOptionsFor,
  schedulesFor,
  upsertSchedulers,
  withTimeout,
  type SyncFanOutResult,
} from '@pod/queue';

const SCHEDULERS_TIMEOUT_MS = 15_000;
const RESYNC_WAIT_MS = 60_000;

/**
 * One-shot operator commands: `prepare` / `migrate` (create database if missing + migrate),
 * `create-database`, and `upsert-schedulers` (register the job schedulers; every gateway also
 * does at start, so a deploy needs it only to apply a changed schedule before the gateways roll),
 * and `resync` (the nightly resync now, for system cron or a Kubernetes CronJob).
 */
async function main(command: string | undefined): Promise<void> {
  const config = loadConfigOrExit();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'create-database') {
    say((await createDatabaseIfMissing(config.DATABASE_URL)) ? 'Database created.' : 'Database exists.');
    return;
  }
  if (command === 'prepare' || command === 'migrate') {
    const { created, applied } = await prepareDatabase(config);
    if (created) say('Database created.');
    say(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Schema is up to date.');
    return;
  }
  if (command === 'upsert-schedulers') {
    say(`Job schedulers registered: ${(await registerSchedulers(config)).join(', ')}`);
    return;
  }
  if (command === 'resync') {
    say(await requestResync(config));
    return;
  }
  throw new Error(
    `Unknown command "${command ?? ''}". Use: prepare | migrate | create-database | upsert-schedulers | resync`,
  );
}

/** The same registration every gateway does at start; for deploy steps and `npm run schedulers`. */
async function registerSchedulers(config: AppConfig): Promise<string[]> {
  const queues = new Map<QueueName, Queue>();
  const queueOf = (name: QueueName) => {
    const queue =
      queues.get(name) ??
      new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
    queues.set(name, queue);
    return queue;
  };
  try {
    // A command must end: Redis that does not answer within the bound is an error, not a hang.
    return await withTimeout(upsertSchedulers(schedulesFor(config), queueOf), SCHEDULERS_TIMEOUT_MS);
  } finally {
    await withTimeout(Promise.all([...queues.values()].map((queue) => queue.close())), 2_000).catch(() => undefined);
  }
}

/**
 * The nightly resync on demand (system cron, a Kubernetes CronJob): the same fan-out job the
 * `nightly-resync` scheduler enqueues, taken by a gateway. One per minute however often it is
 * called (the job id). Waits a while for the fan-out to report, never for the syncs themselves.
 */
async function requestResync(config: AppConfig): Promise<string> {
  const connection = bullConnection(config, 'producer');
  const queue = new Queue('maintenance', { connection, prefix: bullPrefix(config) });
  const events = new QueueEvents('maintenance', {
    connection: bullConnection(config, 'worker'),
    prefix: bullPrefix(config),
  });
  try {
    const minute = new Date().toISOString().slice(0, 16);
    const options = jobOptionsFor('maintenance', 'sync-fan-out');
    const job = await withTimeout(
      queue.add('sync-fan-out', { mode: 'nightly' }, { ...options, jobId: `resync-${minute}` }),
      SCHEDULERS_TIMEOUT_MS,
    );
    await withTimeout(events.waitUntilReady(), SCHEDULERS_TIMEOUT_MS);
    const result = (await job.waitUntilFinished(events, RESYNC_WAIT_MS).catch(() => null)) as SyncFanOutResult | null;
    if (!result) return `Resync queued (job ${job.id}); a gateway will start it.`;
    return `Resync started for ${result.started} shop(s); ${result.alreadyActive} already syncing.`;
  } finally {
    await withTimeout(Promise.all([queue.close(), events.close()]), 2_000).catch(() => undefined);
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
