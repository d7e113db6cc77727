import 'reflect-metadata';
import { Queue, QueueEvents } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { TokenCipher } from '@pod/crypto';
import { createDatabaseIfMissing, createDataSource, prepareDatabase, TokenReencryption } from '@pod/db';
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
 * `resync` (the nightly resync now, for system cron or a Kubernetes CronJob), and
 * `reencrypt-tokens` (every stored provider secret moved to TOKEN_ENCRYPTION_KEY_CURRENT).
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
  if (command === 'reencrypt-tokens') {
    say(await reencryptTokens(config));
    return;
  }
  throw new Error(
    `Unknown command "${command ?? ''}". Use: prepare | migrate | create-database | upsert-schedulers | resync | reencrypt-tokens`,
  );
}

/**
 * Key rotation's middle step (docs/adr/0035-token-key-rotation.md): every stored secret under
 * the current key. Safe to run again, and to run while the app serves (a concurrent token
 * refresh wins its row). Unreadable values are reported, not fatal: no key here opens them, so
 * those sellers must reconnect whatever this does.
 */
async function reencryptTokens(config: AppConfig): Promise<string> {
  const cipher = TokenCipher.fromConfig(config);
  const dataSource = await createDataSource(config, 'reencrypt-tokens', { connectAs: 'login' }).initialize();
  try {
    const report = await new TokenReencryption(dataSource, cipher).run();
    const lines = [
      `Stored secrets now under key v${report.keyVersion}: ${report.users} user(s) checked, ${report.connections} connection(s) and ${report.oauthStates} pending Etsy authorization(s) re-encrypted, ${report.oauthStatesDropped} finished authorization(s) dropped.`,
    ];
    if (report.skippedChanged > 0)
      lines.push(
        `${report.skippedChanged} row(s) changed meanwhile (a token refresh): run the command again to check them.`,
      );
    if (report.unreadable > 0)
      lines.push(
        `${report.unreadable} stored value(s) open with none of the keys configured: keep the key they were stored under listed, or those sellers must reconnect.`,
      );
    return lines.join('\n');
  } finally {
    await dataSource.destroy();
  }
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
