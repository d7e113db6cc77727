import 'reflect-metadata';
import { Queue } from 'bullmq';
import { loadConfigOrExit, type AppConfig } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { createDatabaseIfMissing, prepareDatabase } from '@pod/db';
import { bullConnection, bullPrefix, schedulesFor, upsertSchedulers, withTimeout } from '@pod/queue';

const SCHEDULERS_TIMEOUT_MS = 15_000;

/**
 * One-shot operator commands: `prepare` / `migrate` (create database if missing + migrate),
 * `create-database`, and `upsert-schedulers` (register the job schedulers; every gateway also
 * does at start, so a deploy needs it only to apply a changed schedule before the gateways roll).
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
  throw new Error(`Unknown command "${command ?? ''}". Use: prepare | migrate | create-database | upsert-schedulers`);
}

/** The same registration every gateway does at start; for deploy steps and `npm run schedulers`. */
async function registerSchedulers(config: AppConfig): Promise<string[]> {
  const queues = new Map<QueueName, Queue>();
  const queueOf = (name: QueueName) => {
    const queue = queues.get(name) ?? new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
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

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
