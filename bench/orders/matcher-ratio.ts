import type { Job } from 'bullmq';
import { Client } from 'pg';
import pino from 'pino';
import { createDataSource, MatchRunsRepository, TableStatisticsRepository } from '@pod/db';
import { DEFAULT_MATCHING_OPTIONS } from '@pod/domain';
import type { MatchUserPayload, MatchUserResult } from '@pod/queue';
import { MatchRunsHandler } from '../../services/matcher/src/match-runs.handler';
import { UserMatcher, OrderStatistics } from '@pod/orders';
import { timeRuns, type Timings } from './timing';

/**
 * The plain read the matcher is compared with: the columns it needs of the same rows, one
 * SELECT per table, fetched whole by the same driver (pg) as the matcher's own reads.
 */
const PLAIN_INPUT_READS = [
  `SELECT shop_id, receipt_id, buyer_name, ordered_at FROM etsy_receipt WHERE user_id = $1`,
  `SELECT shop_id, receipt_id, transaction_id, title, sku, quantity FROM etsy_receipt_line WHERE user_id = $1`,
  `SELECT shop_id, order_id, shop_order_id, shop_order_label, is_reprint, buyer_name, ordered_at FROM printify_order WHERE user_id = $1`,
  `SELECT shop_id, order_id, line_no, title, sku, quantity FROM printify_order_line WHERE user_id = $1`,
];
/** A rerun also reads the user's records (the diff's other side). */
const PLAIN_RECORDS_READ = `SELECT id, etsy_shop_id, etsy_receipt_id, printify_shop_id, printify_order_id, status, match_method, match_confidence,
  archived_at, order_date, customer_name, product_title, product_sku FROM order_record WHERE user_id = $1`;

export interface MatcherMeasurement {
  first: { matcher: Timings; plain: Timings; result: MatchUserResult };
  /** The plain read plus a bare INSERT … SELECT of the very records the first run wrote: what any writer pays. */
  bareReadAndWrite: Timings;
  again: { matcher: Timings; plain: Timings; result: MatchUserResult };
  inputRows: number;
  records: Array<{ status: string; method: string | null; n: number }>;
}

/**
 * The matcher's real per-user run, as the `match-user` job runs it (MatchRunsHandler: take the
 * queued run, UserMatcher in one transaction under the user's lock, record the counts), for one
 * user: from no records to all of them (the records are deleted before each timed run, outside
 * the timing), then again with nothing to change. Each against the plain read of its rows.
 */
export async function measureMatcher(
  databaseUrl: string,
  userId: string,
  now: Date,
  runs: { warmUps: number; repeats: number },
): Promise<MatcherMeasurement> {
  const dataSource = await createDataSource(
    { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: 4 },
    'bench-matcher',
  ).initialize();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const matchRuns = new MatchRunsRepository(dataSource);
    const logger = pino({ level: 'silent' });
    // With the job's statistics step, as the matcher runs it.
    const statistics = new OrderStatistics(new TableStatisticsRepository(dataSource), logger);
    const handler = new MatchRunsHandler(
      matchRuns,
      new UserMatcher(dataSource, DEFAULT_MATCHING_OPTIONS),
      { publish: () => Promise.resolve(true) },
      logger,
      () => now,
      async () => {},
      statistics,
    );
    const runJob = async (): Promise<MatchUserResult> => {
      const { run } = await matchRuns.queueOrGetQueued(userId, 'operator');
      const job = {
        data: { runId: run.id },
        attemptsMade: 0,
        opts: { attempts: 1 },
      } as unknown as Job<MatchUserPayload>;
      return handler.handle(job);
    };
    let last: MatchUserResult | null = null;
    const keep = async () => {
      last = await runJob();
    };
    const plainRead = async (sqls: readonly string[]) => {
      let rows = 0;
      for (const sql of sqls) rows += (await client.query(sql, [userId])).rowCount ?? 0;
      return rows;
    };
    const fresh = async () => {
      await client.query(`DELETE FROM order_record WHERE user_id = $1`, [userId]);
      await client.query(`VACUUM order_record`);
    };

    const firstMatcher = await timeRuns({ ...runs, before: fresh }, keep);
    const firstResult = last as unknown as MatchUserResult;
    const firstPlain = await timeRuns(runs, () => plainRead(PLAIN_INPUT_READS));
    await client.query(`CREATE TEMP TABLE bench_records AS SELECT * FROM order_record WHERE user_id = $1`, [userId]);
    const bareReadAndWrite = await timeRuns({ ...runs, before: fresh }, async () => {
      await plainRead(PLAIN_INPUT_READS);
      await client.query(`INSERT INTO order_record SELECT * FROM bench_records`);
    });
    const againMatcher = await timeRuns(runs, keep);
    const againResult = last as unknown as MatchUserResult;
    const againPlain = await timeRuns(runs, () => plainRead([...PLAIN_INPUT_READS, PLAIN_RECORDS_READ]));
    const records = await client.query<{ status: string; method: string | null; n: string }>(
      `SELECT status, match_method AS method, count(*) AS n FROM order_record WHERE user_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [userId],
    );
    return {
      first: { matcher: firstMatcher, plain: firstPlain, result: firstResult },
      bareReadAndWrite,
      again: { matcher: againMatcher, plain: againPlain, result: againResult },
      inputRows: await plainRead(PLAIN_INPUT_READS),
      records: records.rows.map((row) => ({ status: row.status, method: row.method, n: Number(row.n) })),
    };
  } finally {
    await client.end();
    await dataSource.destroy();
  }
}
