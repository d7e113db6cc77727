/**
 * npm run bench:migrations — an upgrade from the previous release under 100k orders (security
 * test plan item 37: "migrations also run on the previous release's schema with 100k orders").
 *
 * 1. A fresh database with the orders bench's seed (bench/orders/seed.ts: a seller with 100k
 *    Etsy receipts and 100k Printify orders, 900k orders over 1,500 other sellers with their
 *    records and figures, all set-based SQL, then VACUUM ANALYZE).
 * 2. A fingerprint of the data: every entity table's (TypeORM's metadata) row count and a hash
 *    of its whole rows (fingerprint.ts).
 * 3. The latest release's migrations reverted (their own down(), libs/db migrations/release.ts:
 *    the release boundary is PREVIOUS_RELEASE_LAST_MIGRATION there), leaving the previous
 *    release's schema holding that data. The columns the latest release adds hold their
 *    defaults in the seed, so the revert loses nothing.
 * 4. The product's own migrate step, the built `cli.js migrate` the deploy runs (compose's
 *    migrate service, the Helm Job, `npm start`'s prestart), timed, while one seller's Orders
 *    page is read back to back as the app role (list-reader.ts): the longest read shows how long
 *    a table stayed locked. Then `cli.js migrate` again, which finds nothing to do (its time is
 *    the step's fixed cost: process start, connecting, the lock, the check).
 * 5. The fingerprint again, and the migrations table: every migration once, in order.
 *
 * Exits non-zero when the data, the migrations table or any read during the upgrade is wrong.
 * Environment: BENCH_MIGRATIONS_SCALE (default 1; 0.01 for a quick check), BENCH_KEEP_DB=1.
 * Needs PostgreSQL; builds the server when it is stale.
 */
import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import {
  createDataSource,
  migrationsByRelease,
  PREVIOUS_RELEASE_LAST_MIGRATION,
  revertToPreviousRelease,
} from '@pod/db';
import { REPO_ROOT, withLoginDataSource } from '@pod/testing';
import { numberFromEnv, seedSizesAt } from '../orders/config';
import { seedOrdersDatabase } from '../orders/seed';
import { median, millis, seconds } from '../orders/timing';
import { ensureFreshServerBuild } from '../support/build';
import { formatTable } from '../support/table';
import { columnsOf, differingTables, entityTables, fingerprintData } from './fingerprint';
import { readsDuring, startListReader } from './list-reader';

const SCALE = numberFromEnv('BENCH_MIGRATIONS_SCALE', 1, 0.001, 1);
const SIZES = seedSizesAt(SCALE);
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
/** Reads before the migrate step starts: what an unhindered page load takes. */
const BASELINE_MS = 3_000;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * `cli.js migrate` on the database, as the deploy runs it: its wall time and what it printed.
 * In a child process, awaited, so the reader in this one goes on reading meanwhile.
 */
async function runMigrateStep(databaseUrl: string): Promise<{ ms: number; output: string }> {
  const started = performance.now();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [resolve(REPO_ROOT, 'dist/gateway/src/cli.js'), 'migrate'],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: 'utf8',
    },
  );
  return { ms: performance.now() - started, output: stdout.trim() };
}

async function main(): Promise<void> {
  console.log(
    `Migrations bench: scale ${SCALE}, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  ensureFreshServerBuild();
  console.log(
    `Seeding: a seller with ${count(SIZES.bigUserOrders)} receipts and as many Printify orders, ${count(SIZES.otherOrders)} orders over ${count(SIZES.otherUsers)} other sellers…`,
  );
  const seeded = await seedOrdersDatabase(SIZES, NOW, { sqlRecords: true, vacuumAnalyze: true, label: 'migrations' });
  const url = seeded.database.url;
  const client = new Client({ connectionString: url });
  const problems: string[] = [];
  try {
    await client.connect();
    const tables = await withLoginDataSource(url, 'bench-migrations', async (dataSource) => entityTables(dataSource));
    const columns = await columnsOf(client, tables);
    let started = performance.now();
    const before = await fingerprintData(client, columns);
    const fingerprintMs = performance.now() - started;
    console.log(
      `Seeded in ${seconds(seeded.totalMs)}; fingerprint of ${tables.length} tables in ${seconds(fingerprintMs)}.`,
    );

    started = performance.now();
    const reverted = await withLoginDataSource(url, 'bench-migrations', revertToPreviousRelease);
    const revertMs = performance.now() - started;
    console.log(`Reverted to ${PREVIOUS_RELEASE_LAST_MIGRATION} in ${seconds(revertMs)}: ${reverted.join(', ')}`);

    const { rows: busiest } = await client.query<{ user_id: string; records: string }>(
      `SELECT user_id, count(*) AS records FROM order_record GROUP BY user_id ORDER BY count(*) DESC, user_id LIMIT 1`,
    );
    const readerSource = await createDataSource(
      { DATABASE_URL: url, DATABASE_POOL_SIZE: 1 },
      'bench-migrations-reader',
    ).initialize();
    let migrate: { ms: number; output: string };
    let migrateStartedAt: number;
    let reads;
    try {
      const reader = startListReader(readerSource, busiest[0].user_id);
      await new Promise((done) => setTimeout(done, BASELINE_MS));
      migrateStartedAt = performance.now();
      try {
        migrate = await runMigrateStep(url);
      } finally {
        reads = await reader.stop();
      }
    } finally {
      await readerSource.destroy();
    }
    console.log(migrate.output);
    const baseline = reads.filter((read) => read.endedAt < migrateStartedAt && !read.error);
    const during = readsDuring(reads, migrateStartedAt, migrateStartedAt + migrate.ms);
    const durationOf = (read: { startedAt: number; endedAt: number }) => read.endedAt - read.startedAt;
    const longestRead = Math.max(0, ...during.map(durationOf));
    const failedReads = reads.filter((read) => read.error);
    for (const read of failedReads.slice(0, 3)) problems.push(`a read failed: ${read.error}`);
    if (!migrate.output.includes(reverted.slice().reverse().join(', ')))
      problems.push(`the migrate step did not apply ${reverted.join(', ')}`);

    const rerun = await runMigrateStep(url);
    if (!rerun.output.includes('Schema is up to date'))
      problems.push(`a second migrate step did work: ${rerun.output}`);

    const after = await fingerprintData(client, columns);
    const changed = differingTables(before, after);
    if (changed.length) problems.push(`data changed in: ${changed.join(', ')}`);
    const { rows: listed } = await client.query<{ name: string }>(`SELECT name FROM schema_migration ORDER BY id`);
    const { previous, latest } = migrationsByRelease();
    const expected = [...previous, ...latest].map((migration) => migration.name);
    const listedOnce = JSON.stringify(listed.map((row) => row.name)) === JSON.stringify(expected);
    if (!listedOnce)
      problems.push(`the migrations table lists ${listed.length} rows, not each of ${expected.length} once`);

    const orders = seeded.rows.etsy_receipt;
    const yes = (ok: boolean) => (ok ? 'yes' : 'NO');
    console.log(
      `\n${formatTable(
        ['Upgrade from the previous release', 'Measured'],
        [
          [
            'Orders (Etsy receipts) / order records / figures',
            `${count(orders)} / ${count(seeded.rows.order_record)} / ${count(seeded.rows.order_profit)}`,
          ],
          ['Orders of the biggest seller', count(SIZES.bigUserOrders)],
          ['Migrations applied', reverted.slice().reverse().join(', ')],
          ['Time to migrate (`cli.js migrate`)', seconds(migrate.ms)],
          ['… of which the step’s fixed cost (a rerun with nothing to do)', seconds(rerun.ms)],
          [
            `Longest Orders page read during the migration (${count(during.length)} reads)`,
            longestRead >= 1_000 ? seconds(longestRead) : millis(longestRead),
          ],
          [
            `Orders page read before it (median of ${count(baseline.length)}, ${count(Number(busiest[0].records))} orders)`,
            millis(median(baseline.map(durationOf))),
          ],
          ['Failed reads', count(failedReads.length)],
          [
            `Fingerprint equal (${tables.length} tables, ${count(sum(Object.values(before).map((t) => t.rows)))} rows)`,
            yes(changed.length === 0),
          ],
          ['Every migration listed once, in order', yes(listedOnce)],
          ['Revert to the previous release (down())', seconds(revertMs)],
        ],
      )}\n`,
    );
    if (problems.length) {
      for (const problem of problems) console.error(`MISMATCH: ${problem}`);
      process.exitCode = 1;
    }
  } finally {
    await client.end().catch(() => undefined);
    if (process.env.BENCH_KEEP_DB) console.log(`Database kept: ${url}`);
    else await seeded.database.drop();
  }
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
