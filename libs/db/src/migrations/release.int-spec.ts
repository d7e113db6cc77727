import { Client } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { createTestDatabase, withLoginDataSource, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { ALL_MIGRATIONS } from './index';
import { migrationsByRelease, PREVIOUS_RELEASE_LAST_MIGRATION, revertToPreviousRelease } from './release';

/**
 * The latest release's `down()`s are real: reverting them leaves exactly the schema the previous
 * release's migrations build on an empty database, and migrating again leaves exactly the latest
 * schema, each migration listed once. The migrations bench (bench/migrations/) relies on this to
 * stand up the previous release's schema under 100k orders.
 */
let upgraded: TestDatabase;
let previousOnly: TestDatabase;

/** Everything a migration can change that the app depends on, in a stable order (no attnum: a re-added column gets a new one). */
const SCHEMA_SQL: Record<string, string> = {
  columns: `SELECT table_name, column_name, data_type, character_maximum_length, numeric_precision, numeric_scale,
              is_nullable, column_default, is_generated, generation_expression
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  indexes: `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`,
  constraints: `SELECT c.conrelid::regclass::text AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition
                FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'
                ORDER BY 1, 2`,
  policies: `SELECT tablename, policyname, permissive, roles::text, cmd, qual, with_check FROM pg_policies
             WHERE schemaname = 'public' ORDER BY tablename, policyname`,
  triggers: `SELECT event_object_table, trigger_name, event_manipulation, action_timing, action_statement
             FROM information_schema.triggers WHERE trigger_schema = 'public' ORDER BY 1, 2, 3`,
  functions: `SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS arguments, md5(pg_get_functiondef(p.oid)) AS definition
              FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' ORDER BY 1, 2`,
  grants: `SELECT table_name, grantee, privilege_type FROM information_schema.role_table_grants
           WHERE table_schema = 'public' ORDER BY 1, 2, 3`,
};

async function schemaOf(url: string): Promise<Record<string, unknown[]>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const schema: Record<string, unknown[]> = {};
    for (const [part, sql] of Object.entries(SCHEMA_SQL)) schema[part] = (await client.query(sql)).rows;
    return schema;
  } finally {
    await client.end();
  }
}

async function migrationNames(url: string): Promise<string[]> {
  return withLoginDataSource(url, 'release-spec', async (dataSource) =>
    ((await dataSource.query(`SELECT name FROM schema_migration ORDER BY id`)) as { name: string }[]).map(
      (row) => row.name,
    ),
  );
}

beforeAll(async () => {
  upgraded = await createTestDatabase('release_down');
  previousOnly = await createTestDatabase('release_previous');
}, 60_000);

afterAll(async () => {
  await upgraded?.drop();
  await previousOnly?.drop();
});

it('up → down → up: the latest release reverts to the previous release’s schema and migrates back to the same schema', async () => {
  const { previous, latest } = migrationsByRelease();
  expect(latest.length).toBeGreaterThan(0);

  await prepareDatabase({ DATABASE_URL: upgraded.url });
  const latestSchema = await schemaOf(upgraded.url);

  // The previous release's schema as its own migrations build it on an empty database.
  const previousDataSource = new DataSource({
    ...createDataSource({ DATABASE_URL: previousOnly.url, DATABASE_POOL_SIZE: 2 }, 'release-spec', {
      connectAs: 'login',
    }).options,
    migrations: previous,
  } as DataSourceOptions);
  await previousDataSource.initialize();
  try {
    await previousDataSource.runMigrations({ transaction: 'each' });
  } finally {
    await previousDataSource.destroy();
  }
  const previousSchema = await schemaOf(previousOnly.url);
  expect(previousSchema).not.toEqual(latestSchema);

  const reverted = await withLoginDataSource(upgraded.url, 'release-spec', revertToPreviousRelease);
  expect(reverted).toEqual(latest.map((migration) => migration.name).reverse());
  expect(await schemaOf(upgraded.url)).toEqual(previousSchema);
  expect((await migrationNames(upgraded.url)).at(-1)).toBe(PREVIOUS_RELEASE_LAST_MIGRATION);

  const { applied } = await prepareDatabase({ DATABASE_URL: upgraded.url });
  expect(applied).toEqual(latest.map((migration) => migration.name));
  expect(await schemaOf(upgraded.url)).toEqual(latestSchema);
  expect(await migrationNames(upgraded.url)).toEqual(ALL_MIGRATIONS.map((migration) => migration.name));
});
