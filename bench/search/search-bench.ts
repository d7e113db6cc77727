/**
 * npm run bench:search — the Orders list of a 100k-order seller, old reads against new in one
 * run (issue 16; ADR 0009's amendment of 2026-11-28):
 * - the matcher's first write of the seller's records with and without the search index
 *   (alternated), the cost the index adds to every record write;
 * - the Orders page's reads as the route runs them (the counts, then the page; app role, row-level
 *   security) before migration 1765520000000 and now: page 1, a search, a short search, the
 *   Dashboard's unmatched card; alone (median) and with BENCH_SEARCH_CONCURRENCY (20) at once
 *   (p50, p99, reads a second), each checked to give the same answer.
 *
 * A fresh database: the big seller's synced rows and other sellers with records, figures and
 * statistics seeded (as bench:orders, 100k other orders over 200 sellers); the big seller's
 * records written by the matcher and analyzed by the matcher's own statistics step, nothing else.
 * Environment: BENCH_SEARCH_SCALE (default 1), BENCH_SEARCH_WRITE_REPEAT (pairs of first writes,
 * default 1; 0 skips them), BENCH_SEARCH_REPEAT (timed reads, default 9),
 * BENCH_SEARCH_CONCURRENCY (20), BENCH_KEEP_DB=1; BENCH_SEARCH_DB and BENCH_SEARCH_USER reuse a
 * kept database and its big seller.
 */
import 'reflect-metadata';
import { isDeepStrictEqual } from 'node:util';
import { cpus, loadavg } from 'node:os';
import pino from 'pino';
import { createDataSource, TableStatisticsRepository, withTenant, type OrderListFilter } from '@pod/db';
import { daysBefore } from '@pod/domain';
import { OrderStatistics, UserMatcher } from '@pod/orders';
import { formatTable } from '../support/table';
import { BENCH_NOW, numberFromEnv } from '../orders/config';
import { median, millis, ratio, seconds, timeRuns } from '../orders/timing';
import { measureFirstWrite } from './first-write';
import { newOrdersRead, oldOrdersRead, type OrdersRead } from './orders-reads';
import { seedSearchDatabase } from './search-seed';

const SCALE = numberFromEnv('BENCH_SEARCH_SCALE', 1, 0.01, 1);
const WRITE_REPEATS = Math.round(numberFromEnv('BENCH_SEARCH_WRITE_REPEAT', 1, 0, 10));
const REPEATS = Math.round(numberFromEnv('BENCH_SEARCH_REPEAT', 9, 1, 100));
const CONCURRENCY = Math.round(numberFromEnv('BENCH_SEARCH_CONCURRENCY', 20, 1, 100));
const ROUNDS = 5;

interface ReadCase {
  label: string;
  filter: OrderListFilter;
  pageSize: number;
}

const base: OrderListFilter = { search: null, status: null, since: null, source: 'all', archived: false };
const CASES: ReadCase[] = [
  { label: 'Orders, page 1', filter: base, pageSize: 50 },
  { label: 'Orders, search "mith"', filter: { ...base, search: 'mith' }, pageSize: 50 },
  { label: 'Orders, search "mi" (short: no trigram)', filter: { ...base, search: 'mi' }, pageSize: 50 },
  {
    label: 'Dashboard: unmatched card (30 days)',
    filter: { ...base, status: 'unmatched', since: daysBefore(new Date(), 30) },
    pageSize: 10,
  },
];

/** `concurrency` reads at once, `ROUNDS` times: each read's wall time, and reads a second over all. */
async function underConcurrency(read: () => Promise<unknown>, concurrency: number) {
  const latencies: number[] = [];
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const at = performance.now();
        await read();
        latencies.push(performance.now() - at);
      }),
    );
  }
  const sorted = [...latencies].sort((x, y) => x - y);
  return {
    p50: median(sorted),
    p99: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)],
    perSecond: (latencies.length * 1000) / (performance.now() - started),
  };
}

async function main(): Promise<void> {
  const count = (n: number) => n.toLocaleString('en-US');
  console.log(
    `Search bench: scale ${SCALE}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const reuse = process.env.BENCH_SEARCH_DB;
  const seeded = reuse
    ? null
    : await seedSearchDatabase(
        {
          bigUserOrders: Math.round(100_000 * SCALE),
          otherOrders: Math.round(100_000 * SCALE),
          otherUsers: Math.max(10, Math.round(200 * SCALE)),
        },
        BENCH_NOW,
      );
  const url = reuse ?? seeded!.database.url;
  const userId = process.env.BENCH_SEARCH_USER ?? seeded!.bigUserId;
  if (seeded) console.log(`Seeded in ${seconds(seeded.totalMs)}: ${JSON.stringify(seeded.rows)}`);
  const app = await createDataSource(
    { DATABASE_URL: url, DATABASE_POOL_SIZE: CONCURRENCY + 2 },
    'bench-search',
  ).initialize();
  try {
    let records = 0;
    if (WRITE_REPEATS > 0) {
      const write = await measureFirstWrite(url, userId, BENCH_NOW, WRITE_REPEATS);
      records = write.records;
      console.log(
        `\n${formatTable(
          ['Matcher, first write of the big seller', 'Runs', 'Median'],
          [
            [
              'without the search index',
              write.withoutIndexMs.map((ms) => seconds(ms)).join(', '),
              seconds(median(write.withoutIndexMs)),
            ],
            [
              'with the search index',
              write.withIndexMs.map((ms) => seconds(ms)).join(', '),
              seconds(median(write.withIndexMs)),
            ],
            ['ratio', '', ratio(median(write.withIndexMs) / median(write.withoutIndexMs))],
          ],
        )}\n`,
      );
    } else {
      await new UserMatcher(app).matchUser(userId, BENCH_NOW);
    }
    const [{ n }] = (await withTenant(app, userId, (db) =>
      db.query(`SELECT count(*)::int AS n FROM order_record WHERE user_id = $1`, [userId]),
    )) as { n: number }[];
    records = n;
    // The match-user job's own statistics step after its write, nothing more.
    await new OrderStatistics(new TableStatisticsRepository(app), pino({ level: 'silent' })).afterWrite(userId, {
      order_record: records,
    });

    const rows: string[][] = [];
    for (const readCase of CASES) {
      const reads: Array<[string, OrdersRead]> = [
        ['old', oldOrdersRead(app, userId)],
        ['new', newOrdersRead(app, userId)],
      ];
      const answers = await Promise.all(reads.map(([, read]) => read(readCase.filter, readCase.pageSize)));
      const same = isDeepStrictEqual(answers[0], answers[1]);
      const measured = [];
      for (const [, read] of reads) {
        const alone = await timeRuns({ warmUps: 2, repeats: REPEATS }, () => read(readCase.filter, readCase.pageSize));
        const loaded = await underConcurrency(() => read(readCase.filter, readCase.pageSize), CONCURRENCY);
        measured.push({ alone: alone.medianMs, ...loaded });
      }
      const [old, now] = measured;
      rows.push([
        readCase.label,
        `${millis(old.alone)} → ${millis(now.alone)}`,
        ratio(now.alone / old.alone),
        `${millis(old.p50)} → ${millis(now.p50)}`,
        `${millis(old.p99)} → ${millis(now.p99)}`,
        `${old.perSecond.toFixed(0)} → ${now.perSecond.toFixed(0)}`,
        same ? 'yes' : 'NO',
        `${count(answers[1].tabCounts.all)} of ${count(answers[1].total)}`,
      ]);
    }
    console.log(
      formatTable(
        [
          `Orders reads, big seller (${count(records)} records), old → new`,
          'Alone (median)',
          'New ÷ old',
          `${CONCURRENCY} at once: p50`,
          'p99',
          'Reads/s',
          'Same answer',
          'Found',
        ],
        rows,
      ),
    );
  } finally {
    await app.destroy();
    if (process.env.BENCH_KEEP_DB || !seeded) console.log(`Database kept: ${url}`);
    else await seeded.database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
