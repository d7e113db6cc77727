/**
 * npm run bench:orders — one seller with 100k Etsy receipts and 100k Printify orders in a
 * database of about a million orders (issue 9), and the ratios the issue asks for, each
 * against the bare SQL for the same answer measured in the same run:
 * - the matcher's per-user run on the big seller (the match-user job's code, in-process) from no
 *   records to all records, and again with nothing to change, ÷ a plain read of the rows it
 *   reads (goal ≤ 2);
 * - GET /api/dashboard/metrics and the first page of GET /api/orders with a search and a status
 *   filter, through the gateway, ÷ hand-written SQL giving the same answer (goal ≤ 1.5 each).
 * Seeding (set-based SQL, then VACUUM ANALYZE) is timed apart and is part of no ratio.
 *
 * Environment: BENCH_ORDERS_SCALE (default 1; 0.01 for a quick check), BENCH_ORDERS_REPEAT
 * (timed runs per measurement, median reported; default 7, after 2 warm-ups),
 * BENCH_KEEP_DB=1 (keep the database and print its URL), BENCH_VERBOSE=1 (seed steps as they
 * finish). Needs PostgreSQL, as the tests do.
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { formatTable } from '../support/table';
import { BENCH_NOW, SIZES } from './config';
import { measureMatcher, type MatcherMeasurement } from './matcher-ratio';
import { computeBigSellerProfits } from './profits-step';
import { measureReads, type ReadMeasurement } from './read-ratios';
import { seedOrdersDatabase, type SeededDatabase } from './seed';
import { millis, ratio, seconds } from './timing';

const count = (n: number) => n.toLocaleString('en-US');

function seedTable(seeded: SeededDatabase): string {
  return formatTable(
    ['Seeding (not part of any ratio)', 'Rows / time'],
    [
      ...Object.entries(seeded.rows).map(([table, rows]) => [table, count(rows)]),
      ...seeded.steps.map(([label, ms]) => [`time: ${label}`, seconds(ms)]),
      ['time: in all', seconds(seeded.totalMs)],
    ],
  );
}

function matcherTable(m: MatcherMeasurement): string {
  const row = (label: string, part: MatcherMeasurement['first']) => [
    [`${label}: matcher (match-user job)`, seconds(part.matcher.medianMs)],
    [`${label}: plain read of its rows`, millis(part.plain.medianMs)],
    [`${label}: ratio (goal ≤ 2)`, ratio(part.matcher.medianMs / part.plain.medianMs)],
    [
      `${label}: records added / changed / removed`,
      `${count(part.result.added)} / ${count(part.result.changed)} / ${count(part.result.removed)}`,
    ],
  ];
  return formatTable(
    ['Matcher, big seller', 'Median'],
    [
      ['Rows read (receipts, lines, Printify orders, lines)', count(m.inputRows)],
      ...row('First run (no records)', m.first),
      ['First run: plain read + bare INSERT of the same records', seconds(m.bareReadAndWrite.medianMs)],
      ['First run: matcher ÷ that', ratio(m.first.matcher.medianMs / m.bareReadAndWrite.medianMs)],
      ...row('Second run (no changes)', m.again),
      ...m.records.map((r) => [`Records: ${r.status}${r.method ? ` (${r.method})` : ''}`, count(r.n)]),
    ],
  );
}

function readsTable(reads: readonly ReadMeasurement[]): string {
  return formatTable(
    ['Read route (gateway over HTTP) vs bare SQL', 'Route', 'Bare SQL', 'Ratio (goal ≤ 1.5)', 'Same answer', 'Answer'],
    reads.map((read) => [
      read.label,
      millis(read.route.medianMs),
      millis(read.sql.medianMs),
      ratio(read.route.medianMs / read.sql.medianMs),
      read.agree ? 'yes' : 'NO',
      read.detail,
    ]),
  );
}

async function main(): Promise<void> {
  console.log(
    `Orders bench: scale ${SIZES.scale}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `Seeding: a big seller with ${count(SIZES.bigUserOrders)} receipts and as many Printify orders, ${count(SIZES.otherOrders)} orders over ${count(SIZES.otherUsers)} other sellers…`,
  );
  const seeded = await seedOrdersDatabase(SIZES, BENCH_NOW);
  try {
    console.log(`\n${seedTable(seeded)}\n`);
    const runs = { warmUps: 1, repeats: Math.max(1, Math.min(3, SIZES.repeats)) };
    console.log(`Matcher: ${runs.warmUps} warm-up and ${runs.repeats} timed runs each…`);
    const matcher = await measureMatcher(seeded.database.url, seeded.bigUserId, BENCH_NOW, runs);
    console.log(`\n${matcherTable(matcher)}\n`);
    const profits = await computeBigSellerProfits(seeded.database.url, seeded.bigUserId, BENCH_NOW);
    console.log(
      `compute-profits for the big seller: ${count(profits.counts.computed)} of ${count(profits.counts.records)} records computed, ` +
        `${count(profits.counts.written)} figure rows written in ${seconds(profits.ms)} (part of no ratio)\n`,
    );
    const readRuns = { warmUps: SIZES.warmUps, repeats: SIZES.repeats };
    console.log(`Read routes: ${readRuns.warmUps} warm-ups and ${readRuns.repeats} timed runs each…`);
    console.log(`\n${readsTable(await measureReads(seeded.database.url, seeded.bigUserId, readRuns))}\n`);
  } finally {
    if (process.env.BENCH_KEEP_DB) console.log(`Database kept: ${seeded.database.url}`);
    else await seeded.database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
