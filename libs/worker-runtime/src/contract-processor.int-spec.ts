import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { bullConnection, type JobHandlers } from '@pod/queue';
import { createTestDatabase, deleteRedisPrefix, uniqueRedisPrefix, type TestDatabase } from '@pod/testing';
import { ContractProcessor } from './contract-processor';
import { pingHandler } from './ping-handler';

/**
 * What a failed job leaves in Redis when its handler hits a PostgreSQL error that quotes a value:
 * a real BullMQ worker on a real Redis runs a contract processor whose compute-profits handler
 * sends a value to real PostgreSQL, which refuses it and quotes it back. The job's failedReason
 * and stacktrace (what Bull Board shows) name the SQLSTATE and the statement, never the value.
 */
const VALUE = 'jane.doe@example.com 42 Elm Street';
const USER = '5b0c5e8e-1c1f-4f0e-9d7a-0b6f1c2d3e4f';

class FailingProcessor extends ContractProcessor<'matcher'> {
  readonly queue = 'matcher' as const;
  readonly handlers: JobHandlers<'matcher'>;

  constructor(dataSource: DataSource) {
    super();
    this.handlers = {
      ping: pingHandler('matcher'),
      'match-user': async (job) => ({ runId: job.data.runId, status: 'skipped', added: 0, changed: 0, removed: 0 }),
      'compute-profits': async () => {
        await dataSource.query(`SELECT $1::uuid AS id`, [VALUE]);
        return { userId: USER, records: 0, computed: 0, written: 0 };
      },
      'refigure-profits': async () => ({ usersQueued: 0 }),
    };
  }
}

let database: TestDatabase;
let dataSource: DataSource;
const prefix = uniqueRedisPrefix('jobfailure');
const connection = bullConnection(
  { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix },
  'worker',
);

beforeAll(async () => {
  database = await createTestDatabase('jobfailure');
  dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
  await deleteRedisPrefix(prefix);
});

it('a job failing on a PostgreSQL error that quotes a value keeps its code and statement in Redis, not the value', async () => {
  const processor = new FailingProcessor(dataSource);
  Object.assign(processor, {
    events: { publish: async () => true },
    logger: { info() {}, warn() {} } as unknown as Logger,
  });
  const queue = new Queue('matcher', { connection, prefix });
  const events = new QueueEvents('matcher', { connection, prefix });
  const worker = new Worker('matcher', (job: Job, token?: string) => processor.process(job, token), {
    connection,
    prefix,
  });
  try {
    await events.waitUntilReady();
    const job = await queue.add('compute-profits', { userId: USER, reason: 'matched' }, { attempts: 1 });
    await expect(job.waitUntilFinished(events, 20_000)).rejects.toThrow();
    const failed = await queue.getJob(job.id!);
    const kept = JSON.stringify({ reason: failed?.failedReason, stack: failed?.stacktrace });
    expect(failed?.failedReason).toMatch(
      /^PostgreSQL error 22P02 \(invalid_text_representation\) in SELECT#[0-9a-f]{8}$/,
    );
    expect(failed?.stacktrace?.length).toBeGreaterThan(0);
    expect(kept).not.toContain('jane.doe');
    expect(kept).not.toContain('Elm Street');
  } finally {
    await worker.close();
    await events.close();
    await queue.close();
  }
});
