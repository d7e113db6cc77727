import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { assertRuntimeRole } from './runtime-role';

/** An arbitrary constant: every process that migrates takes this PostgreSQL advisory lock first. */
const MIGRATION_LOCK_ID = 7_310_425_001;

/** Creates the database named in the URL when it is missing (connecting to the `postgres` database). */
export async function createDatabaseIfMissing(databaseUrl: string): Promise<boolean> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  url.pathname = '/postgres';
  const client = new Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      return true;
    } catch (error) {
      // Another process created it between our check and our CREATE.
      if ((error as { code?: string }).code === '42P04' || (error as { code?: string }).code === '23505') return false;
      throw error;
    }
  } finally {
    await client.end();
  }
}

/**
 * Runs pending migrations once, even when several processes start together: each waits for
 * the advisory lock, and whoever gets it second finds nothing pending.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * For processes that never migrate (workers): resolves once no migration is pending, and only if
 * the pool's role is one row-level security applies to (else RuntimeRoleError, not retried: it
 * is a configuration mistake).
 */
export async function waitForSchema(
  dataSource: DataSource,
  options: { signal?: AbortSignal; pollMs?: number; onWait?: (error: unknown) => void } = {},
): Promise<void> {
  const pollMs = options.pollMs ?? 1_000;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      if (!dataSource.isInitialized) await dataSource.initialize();
      if (!(await dataSource.showMigrations())) break;
      options.onWait?.(new Error('migrations pending'));
    } catch (error) {
      options.onWait?.(error);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  await assertRuntimeRole(dataSource);
}

/** Creates the database if needed and applies pending migrations (safe when processes race). */
export async function prepareDatabase(config: {
  DATABASE_URL: string;
}): Promise<{ created: boolean; applied: string[] }> {
  const created = await createDatabaseIfMissing(config.DATABASE_URL);
  // Migrations run as the login (the tables' owner), never as the runtime role.
  const dataSource = await createDataSource(
    { DATABASE_URL: config.DATABASE_URL, DATABASE_POOL_SIZE: 2 },
    'podprofit-migrate',
    { connectAs: 'login' },
  ).initialize();
  try {
    return { created, applied: await runMigrations(dataSource) };
  } finally {
    await dataSource.destroy();
  }
}
