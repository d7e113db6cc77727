/**
 * npm run bench:payouts — the Payouts page of a seller with about 1M Etsy ledger entries (100k
 * orders), the old read (a walk of the whole ledger, then each deposit scanning it again) against
 * the windowed read of migration 1765640000000, in one run (docs/adr/0027, amendment of
 * 2026-11-28): page 1 and the last page, each checked to give the same answer.
 *
 * A fresh database migrated as the product migrates it; the seller's ledger inserted with one
 * set-based statement: two years, a daily deposit, sales and fees between, Etsy's running balance
 * and sequence numbers in the payload; then the sync's own statistics step (analyzeStale), no
 * other ANALYZE.
 * Environment: BENCH_PAYOUTS_SCALE (default 1: 1M entries), BENCH_PAYOUTS_REPEAT (timed reads,
 * default 5), BENCH_KEEP_DB=1.
 */
import 'reflect-metadata';
import { isDeepStrictEqual } from 'node:util';
import { cpus, loadavg } from 'node:os';
import { Client } from 'pg';
import { createDataSource, PayoutsRepository, prepareDatabase, TableStatisticsRepository } from '@pod/db';
import { createFixtureUser, createTestDatabase } from '@pod/testing';
import { formatTable } from '../support/table';
import { numberFromEnv } from '../orders/config';
import { millis, ratio, seconds, timeRuns } from '../orders/timing';
import { oldPayoutsPage } from './old-payouts-read';

const SCALE = numberFromEnv('BENCH_PAYOUTS_SCALE', 1, 0.001, 1);
const REPEATS = Math.round(numberFromEnv('BENCH_PAYOUTS_REPEAT', 5, 1, 50));
const ENTRIES = Math.round(1_000_000 * SCALE);
const DAYS = 730;
const PAGE_SIZE = 10;

/**
 * The seller's ledger: entry i of N on day ⌊i·DAYS/N⌋; the last entry of each day a deposit
 * (DISBURSE2) of the whole balance, sales of 1.50 and fees of −0.50 alternating before it.
 */
const SEED_SQL = `
  WITH plan AS (
    SELECT i, day, i - min(i) OVER (PARTITION BY day) + 1 AS r, i = max(i) OVER (PARTITION BY day) AS deposit
    FROM (SELECT i, floor((i - 1)::numeric * ${DAYS} / $2)::int AS day FROM generate_series(1, $2::int) AS i) g
  ), money AS (
    SELECT i, day, deposit,
      CASE WHEN deposit THEN -(150 * ceil((r - 1) / 2.0) - 50 * floor((r - 1) / 2.0))
        WHEN r % 2 = 1 THEN 150 ELSE -50 END::bigint AS amount,
      CASE WHEN deposit THEN 0 ELSE 150 * ceil(r / 2.0) - 50 * floor(r / 2.0) END::bigint AS balance
    FROM plan
  )
  INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, currency, amount_minor, entry_created_at, link_pending, payload, payload_hash)
  SELECT $1, 'bench-shop', (100000000 + i)::text,
    CASE WHEN deposit THEN 'DISBURSE2' WHEN i % 2 = 1 THEN 'PAYMENT_GROSS' ELSE 'transaction' END,
    'USD', amount, timestamptz '2024-11-28 00:00:00Z' + make_interval(days => day) + make_interval(secs => i % 86000),
    false, jsonb_build_object('entry_id', 100000000 + i, 'amount', amount, 'balance', balance, 'sequence_number', i), md5(i::text)
  FROM money`;

async function main(): Promise<void> {
  console.log(
    `Payouts bench: scale ${SCALE} (${ENTRIES.toLocaleString('en-US')} ledger entries), ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const database = await createTestDatabase('bench_payouts');
  const app = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'bench-payouts');
  try {
    await prepareDatabase({ DATABASE_URL: database.url });
    await app.initialize();
    const userId = await createFixtureUser(app, 'bench-payouts');
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const seedStarted = performance.now();
    await client.query(`SET synchronous_commit = off`);
    await client.query(SEED_SQL, [userId, ENTRIES]);
    await client.end();
    // What a sync runs after its pages (the product's only ANALYZE of the ledger), nothing more.
    const analyzed = await new TableStatisticsRepository(app).analyzeStale();
    console.log(
      `Seeded in ${seconds(performance.now() - seedStarted)}; the sync's statistics step analyzed ${analyzed.join(', ') || 'nothing'}`,
    );

    const repository = new PayoutsRepository(app);
    const { total } = await repository.page(userId, PAGE_SIZE, 0);
    const lastOffset = Math.max(0, Math.floor((total - 1) / PAGE_SIZE) * PAGE_SIZE);
    const rows: string[][] = [];
    for (const [label, offset] of [
      ['page 1', 0],
      [`last page (offset ${lastOffset})`, lastOffset],
    ] as const) {
      const reads = {
        old: () => oldPayoutsPage(app, userId, PAGE_SIZE, offset),
        now: async () => (await repository.page(userId, PAGE_SIZE, offset)).payouts,
      };
      const same = isDeepStrictEqual(await reads.old(), await reads.now());
      const old = await timeRuns({ warmUps: 1, repeats: REPEATS }, reads.old);
      const now = await timeRuns({ warmUps: 1, repeats: REPEATS }, reads.now);
      rows.push([
        `Payouts, ${label}`,
        millis(old.medianMs),
        millis(now.medianMs),
        ratio(old.medianMs / now.medianMs),
        same ? 'yes' : 'NO',
      ]);
    }
    const unpaid = await timeRuns({ warmUps: 1, repeats: REPEATS }, () => repository.unpaid(userId));
    rows.push(['Not yet paid out (new only)', '', millis(unpaid.medianMs), '', '']);
    console.log(
      formatTable(
        [
          `${total} deposits, ${ENTRIES.toLocaleString('en-US')} entries, ${PAGE_SIZE} a page`,
          'Old (median)',
          'New (median)',
          'Old ÷ new',
          'Same answer',
        ],
        rows,
      ),
    );
  } finally {
    if (app.isInitialized) await app.destroy();
    if (process.env.BENCH_KEEP_DB) console.log(`Database kept: ${database.url}`);
    else await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
