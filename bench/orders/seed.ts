import { Client } from 'pg';
import { prepareDatabase } from '@pod/db';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import type { SeedSizes } from './config';
import { seedPlanStatements } from './seed-plan';
import { seedTableStatements } from './seed-tables';

/** The tables the seed fills; their secondary indexes are built once after the rows are in. */
const SEEDED_TABLES = [
  'etsy_receipt',
  'etsy_receipt_line',
  'etsy_payment',
  'etsy_ledger_entry',
  'printify_order',
  'printify_order_line',
  'order_record',
  'order_profit',
  'dashboard_day',
  'order_count_day',
  'cost_kind_day',
  'product_day',
];

export interface SeededDatabase {
  database: TestDatabase;
  bigUserId: string;
  /** Rows per seeded table. */
  rows: Record<string, number>;
  /** Wall time of each step, and in all. */
  steps: Array<[label: string, ms: number]>;
  totalMs: number;
}

/**
 * What the seed writes besides the synced rows. The orders bench (the default) writes every
 * other seller's records and figures with SQL and then vacuums and analyzes, as a database that
 * has lived a while would be; the load bench writes only the synced rows and leaves records,
 * figures and planner statistics to the product's own code (a seller's state, nothing more).
 */
export interface SeedOptions {
  /** Whether the other sellers' order_record and order_profit rows are written by the seed's SQL. */
  sqlRecords: boolean;
  /** Whether the seed ends with VACUUM (ANALYZE), which the product itself never runs. */
  vacuumAnalyze: boolean;
  /** Names the database (bench_<label>_…). */
  label: string;
}

const ORDERS_BENCH_SEED: SeedOptions = { sqlRecords: true, vacuumAnalyze: true, label: 'orders' };

/**
 * A fresh database migrated as the tests migrate theirs, filled with set-based SQL
 * (INSERT … SELECT from the seed plan's generate_series), then (by default) vacuumed and
 * analyzed, as a database that has lived a while would be.
 *
 * Loading tricks, for speed only — the schema the bench measures is the migrations' own:
 * secondary (non-unique) indexes are dropped and rebuilt from their own definitions after the
 * load, and foreign-key triggers are off during it (session_replication_role = replica; the
 * rows are consistent by construction).
 */
export async function seedOrdersDatabase(
  sizes: SeedSizes,
  now: Date,
  options: SeedOptions = ORDERS_BENCH_SEED,
): Promise<SeededDatabase> {
  const started = performance.now();
  const steps: Array<[string, number]> = [];
  const database = await createTestDatabase(`bench_${options.label}`);
  const client = new Client({ connectionString: database.url });
  try {
    await timed(steps, 'migrate', () => prepareDatabase({ DATABASE_URL: database.url }));
    await client.connect();
    await client.query(`SET maintenance_work_mem = '256MB'`);
    await client.query(`SET work_mem = '64MB'`);
    await client.query(`SET synchronous_commit = off`);
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1) AND NOT x.indisunique AND NOT x.indisprimary`,
      [SEEDED_TABLES],
    );
    for (const index of indexes.rows) await client.query(`DROP INDEX "${index.indexname}"`);
    await timed(steps, 'plan (temporary tables)', async () => {
      for (const sql of seedPlanStatements(sizes, now)) await client.query(sql);
    });
    await client.query(`SET session_replication_role = replica`);
    for (const [label, sql] of seedTableStatements(now, { sqlRecords: options.sqlRecords }))
      await timed(steps, label, () => client.query(sql));
    await client.query(`RESET session_replication_role`);
    await timed(steps, 'secondary indexes', async () => {
      for (const index of indexes.rows) await client.query(index.indexdef);
    });
    if (options.vacuumAnalyze) await timed(steps, 'vacuum analyze', () => client.query(`VACUUM (ANALYZE)`));
    const big = await client.query<{ user_id: string }>(`SELECT user_id FROM seed_user WHERE user_no = 0`);
    const rows: Record<string, number> = {};
    for (const table of SEEDED_TABLES) {
      rows[table] = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    }
    return { database, bigUserId: big.rows[0].user_id, rows, steps, totalMs: performance.now() - started };
  } catch (error) {
    await client.end().catch(() => undefined);
    await database.drop().catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function timed<T>(steps: Array<[string, number]>, label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  steps.push([label, performance.now() - started]);
  if (process.env.BENCH_VERBOSE) console.log(`  seed: ${label} ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
