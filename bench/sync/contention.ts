import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix, jobOptionsFor } from '@pod/queue';
import { queryDatabase, TEST_APP_SECRET, type ServiceProcess } from '@pod/testing';
import type { BenchStack } from '../support/stack';

/**
 * Every replica at once on one seller's budgets: `receipts` refresh-receipt jobs (two Etsy
 * calls each: the receipt and its payments) and `orders` refresh-order jobs (one Printify call
 * each) enqueued together, so every etsy-sync and printify-sync process (WORKER_CONCURRENCY 2
 * each) takes the shared Redis buckets concurrently. The sandbox's log then shows whether the
 * limits held across processes.
 */
export interface ContentionResult {
  startedAt: number;
  wallMs: number;
  /** Refresh jobs completed per worker process (the spread across replicas). */
  jobsPerProcess: Record<string, number>;
  failedJobs: number;
}

interface Connection {
  provider: 'etsy' | 'printify';
  user_id: string;
  shop_id: string;
}

const jobsCompleted = (worker: ServiceProcess, name: string) =>
  worker
    .logs()
    .split('\n')
    .filter((line) => line.includes('"event":"job.completed"') && line.includes(`"job":"${name}"`)).length;

export async function contendForBudgets(
  stack: BenchStack,
  sizes: { receipts: number; orders: number },
  deadline: number,
): Promise<ContentionResult> {
  const connections = await queryDatabase<Connection>(
    stack.databaseUrl,
    `SELECT provider, user_id, shop_id FROM provider_connection`,
  );
  const etsy = connections.find((row) => row.provider === 'etsy') as Connection;
  const printify = connections.find((row) => row.provider === 'printify') as Connection;
  const receipts = await queryDatabase<{ id: string }>(
    stack.databaseUrl,
    `SELECT receipt_id AS id FROM etsy_receipt ORDER BY receipt_id LIMIT $1`,
    [sizes.receipts],
  );
  const orders = await queryDatabase<{ id: string }>(
    stack.databaseUrl,
    `SELECT order_id AS id FROM printify_order ORDER BY order_id LIMIT $1`,
    [sizes.orders],
  );
  const config = loadConfig({ REDIS_PREFIX: stack.redisPrefix, APP_SECRET: TEST_APP_SECRET });
  const queues = {
    etsy: new Queue('etsy-sync', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) }),
    printify: new Queue('printify-sync', {
      connection: bullConnection(config, 'producer'),
      prefix: bullPrefix(config),
    }),
  };
  const before = Object.fromEntries(
    stack.workers.map((worker) => [
      worker.name,
      jobsCompleted(worker, 'refresh-receipt') + jobsCompleted(worker, 'refresh-order'),
    ]),
  );
  try {
    const startedAt = Date.now();
    await Promise.all([
      queues.etsy.addBulk(
        receipts.map(({ id }) => ({
          name: 'refresh-receipt',
          data: { userId: etsy.user_id, shopId: etsy.shop_id, receiptId: id },
          opts: jobOptionsFor('etsy-sync', 'refresh-receipt'),
        })),
      ),
      queues.printify.addBulk(
        orders.map(({ id }) => ({
          name: 'refresh-order',
          data: { userId: printify.user_id, shopId: printify.shop_id, orderId: id },
          opts: jobOptionsFor('printify-sync', 'refresh-order'),
        })),
      ),
    ]);
    for (;;) {
      const counts = await Promise.all(
        Object.values(queues).map((queue) =>
          queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused'),
        ),
      );
      if (counts.every((count) => Object.values(count).every((n) => n === 0))) break;
      if (Date.now() > deadline) throw new Error(`the refresh jobs did not finish in time: ${JSON.stringify(counts)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const wallMs = Date.now() - startedAt;
    const failed = await Promise.all(Object.values(queues).map((queue) => queue.getJobCountByTypes('failed')));
    // Give the processes a moment to write their last completion lines.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const jobsPerProcess = Object.fromEntries(
      stack.workers.map((worker) => [
        worker.name,
        jobsCompleted(worker, 'refresh-receipt') + jobsCompleted(worker, 'refresh-order') - (before[worker.name] ?? 0),
      ]),
    );
    return { startedAt, wallMs, jobsPerProcess, failedJobs: failed.reduce((a, b) => a + b, 0) };
  } finally {
    await Promise.all(Object.values(queues).map((queue) => queue.close()));
  }
}
