import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const TEST_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database per test run; migrations run when the app under test starts. */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `podprofit_${label.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  return {
    name,
    url: `${TEST_SERVER_URL}/${name}`,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** A unique Redis key prefix per test run, so runs never see each other's queues or counters. */
export function uniqueRedisPrefix(label = 'test'): string {
  return `t_${label.replace(/[^a-z0-9_-]/gi, '_')}_${randomBytes(4).toString('hex')}`;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: `${TEST_SERVER_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** One statement on a test database over its own short-lived connection: the rows it returns. */
export async function queryDatabase<T = unknown>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A real database outage for the processes using a test database: it stops accepting
 * connections and every open one is ended, so pooled clients fail and new ones are refused
 * (what a PostgreSQL restart or failover looks like to the app). Returns the way back.
 */
export async function refuseDatabaseConnections(url: string): Promise<{ restore(): Promise<void> }> {
  const name = testDatabaseName(url);
  await adminQuery(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
  await adminQuery(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`,
  );
  return { restore: () => allowDatabaseConnections(url) };
}

/** Ends an outage refuseDatabaseConnections began (harmless when there is none). */
export async function allowDatabaseConnections(url: string): Promise<void> {
  await adminQuery(`ALTER DATABASE "${testDatabaseName(url)}" ALLOW_CONNECTIONS true`);
}

function testDatabaseName(url: string): string {
  const name = new URL(url).pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a test database name: ${name}`);
  return name;
}
