import { Client } from 'pg';
import { CONNECTION_STATUSES, PROVIDERS } from '@pod/contracts';
import { DISPLAY_CURRENCY_CODES, STORED_FIGURES_STATES } from '@pod/domain';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { prepareDatabase } from './prepare-database';

/**
 * The committed migrations spell the allowed values of some text columns in CHECK
 * constraints. Those lists must equal the unions the code uses (libs/contracts,
 * libs/domain): a value the code may write but the database refuses is a 500 waiting to
 * happen, and one the database accepts but the code does not know is a switch that falls
 * through. A change to either side needs a migration and this test to agree.
 */
let database: TestDatabase;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase('schema');
  await prepareDatabase({ DATABASE_URL: database.url });
  client = new Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await database?.drop();
});

/**
 * The values a CHECK constraint of the migrated schema allows for `table.column`, e.g.
 * `provider IN ('etsy', 'printify')`; `constraint` names it when other checks use the column too.
 */
async function allowedValues(table: string, column: string, constraint?: string): Promise<string[]> {
  const { rows } = await client.query<{ definition: string }>(
    `SELECT pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
      WHERE c.contype = 'c' AND c.conrelid = $1::regclass AND a.attname = $2 AND ($3::text IS NULL OR c.conname = $3)`,
    [table, column, constraint ?? null],
  );
  expect(rows).toHaveLength(1);
  // PostgreSQL normalises `IN (…)` to `(column = ANY (ARRAY['a'::text, 'b'::text]))`.
  const values = [...rows[0].definition.matchAll(/'((?:[^']|'')*)'::text/g)].map((match) =>
    match[1].replace(/''/g, "'"),
  );
  expect(values.length).toBeGreaterThan(0);
  return values;
}

describe('the migrated schema', () => {
  it('allows exactly the providers of @pod/contracts', async () => {
    expect(await allowedValues('provider_connection', 'provider')).toEqual([...PROVIDERS]);
  });

  it('allows exactly the connection statuses of @pod/contracts', async () => {
    expect(await allowedValues('provider_connection', 'status')).toEqual([...CONNECTION_STATUSES]);
  });

  it('allows exactly the display currencies of @pod/domain', async () => {
    expect(await allowedValues('app_user', 'display_currency')).toEqual([...DISPLAY_CURRENCY_CODES]);
  });

  it('allows exactly the stored figures states of @pod/domain', async () => {
    expect(await allowedValues('order_profit', 'figures', 'order_profit_figures_check')).toEqual([
      ...STORED_FIGURES_STATES,
    ]);
  });
});
