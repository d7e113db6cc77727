import { Queue } from 'bullmq';
import { Client } from 'pg';
import { QUEUE_NAMES } from '@pod/contracts';
import { createDataSource, MatchRunsRepository } from '@pod/db';
import { bullConnection, bullPrefix, jobOptionsFor } from '@pod/queue';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Every seller's records and figures, written by the product itself: a match run per seller,
 * queued as the gateway queues one (a match_run row, then a `match-user` job whose id is the
 * run's) and done by the running matcher worker, which then queues the seller's compute-profits
 * job, and whatever those jobs queue in turn. Waits until no run is active and every queue is
 * idle, so the database is as the product leaves it after a seller's first sync — with no
 * statistics refresh other than the product's own and autovacuum's.
 */
export async function matchEverySeller(
  databaseUrl: string,
  redisPrefix: string,
  log: (line: string) => void,
): Promise<{ sellers: number; records: number; figures: number; ms: number }> {
  const started = performance.now();
  const connection = bullConnection({ REDIS_URL } as Parameters<typeof bullConnection>[0], 'producer');
  const queues = QUEUE_NAMES.map(
    (name) => new Queue(name, { connection, prefix: bullPrefix({ REDIS_PREFIX: redisPrefix }) }),
  );
  const matcher = queues[QUEUE_NAMES.indexOf('matcher')];
  const dataSource = await createDataSource(
    { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: 2 },
    'bench-load-match',
  ).initialize();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const users = (await client.query<{ id: string }>(`SELECT id FROM app_user ORDER BY email`)).rows.map(
      (row) => row.id,
    );
    const runs = new MatchRunsRepository(dataSource);
    for (const userId of users) {
      const { run } = await runs.queueOrGetQueued(userId, 'operator');
      await matcher.add('match-user', { runId: run.id }, { ...jobOptionsFor('matcher', 'match-user'), jobId: run.id });
    }
    log(`  queued a match run for each of ${users.length} sellers; waiting for the matcher and the jobs it queues…`);
    let idleChecks = 0;
    let lastReport = performance.now();
    while (idleChecks < 3) {
      await new Promise((done) => setTimeout(done, 1_000));
      const active = Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM match_run WHERE status IN ('queued', 'running')`))
          .rows[0].n,
      );
      const failed = Number(
        (await client.query<{ n: string }>(`SELECT count(*) AS n FROM match_run WHERE status = 'failed'`)).rows[0].n,
      );
      if (failed > 0) throw new Error(`${failed} match runs failed`);
      let pending = 0;
      for (const queue of queues) {
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children');
        pending += Object.values(counts).reduce((sum, n) => sum + n, 0);
        // Delayed too (a job waiting out its retry back-off has not finished), but not the next
        // run of a schedule (the nightly resync, the maintenance crons), always there, nor the
        // fx-rate worker's retries of a feed the bench does not serve, which figure nothing.
        if (queue.name === 'fx-rate') continue;
        const delayed = await queue.getDelayed();
        pending += delayed.filter((job) => !job.repeatJobKey && !String(job.id).startsWith('repeat:')).length;
      }
      idleChecks = active === 0 && pending === 0 ? idleChecks + 1 : 0;
      if (performance.now() - lastReport > 30_000) {
        lastReport = performance.now();
        log(
          `  … ${active} match runs active, ${pending} jobs waiting or running (${Math.round((performance.now() - started) / 1000)} s)`,
        );
      }
    }
    const ms = performance.now() - started;
    // A seller left without figures would be measured reading nothing: say so, and why, and stop.
    const unfigured = (
      await client.query<{ user_id: string; n: string }>(
        `SELECT r.user_id, count(*) AS n FROM order_record r
          WHERE NOT EXISTS (SELECT 1 FROM order_profit p WHERE p.order_record_id = r.id) GROUP BY r.user_id`,
      )
    ).rows;
    if (unfigured.length > 0) {
      const failed = await matcher.getJobs(['failed'], 0, 20);
      const reasons = failed.map((job) => `${job.name} ${JSON.stringify(job.data)}: ${job.failedReason}`);
      throw new Error(
        `${unfigured.length} sellers have records without figures (${unfigured
          .slice(0, 5)
          .map((row) => `${row.user_id}: ${row.n}`)
          .join(', ')}); failed matcher jobs: ${reasons.join(' | ') || 'none'}`,
      );
    }
    const rows = async (table: string) =>
      Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    return { sellers: users.length, records: await rows('order_record'), figures: await rows('order_profit'), ms };
  } finally {
    await client.end();
    await dataSource.destroy();
    await Promise.allSettled(queues.map((queue) => queue.close()));
  }
}
