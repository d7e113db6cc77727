import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { prepareDatabase } from '../prepare-database';
import { FeesFromTheirSource1765610000000 } from './1765610000000-fees-from-their-source';

/**
 * Migration 1765610000000 on stored data: sold renewals stored before it (never linked, not
 * waiting) wait again, with their VAT entries, under row-level security, for every user.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('relink');
  await prepareDatabase({ DATABASE_URL: database.url });
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

it('re-queues the sold renewals stored before it, and their VAT', async () => {
  const [{ id }] = await queryDatabase<{ id: string }>(
    database.url,
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ('relink@example.com', 'x', 'R', 'L') RETURNING id`,
  );
  const entry = (entryId: string, type: string, reference: string | null, parent: string | null) =>
    queryDatabase(
      database.url,
      `INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, reference_type, reference_id, parent_entry_id,
         currency, amount_minor, entry_created_at, link_pending, payload, payload_hash)
       VALUES ($1, 'S', $2, $3, 'listing', $4, $5, 'USD', -20, now(), false, '{}', 'h')`,
      [id, entryId, type, reference, parent],
    );
  await entry('E1', 'renew_sold', 'L1', null);
  await entry('E2', 'vat_seller_services', null, 'E1');
  await entry('E3', 'renew_expired', 'L1', null);
  // As the migrating login (the tables' owner), as prepareDatabase runs migrations.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const runner = { query: (text: string) => client.query(text).then((result) => result.rows) } as QueryRunner;
    await new FeesFromTheirSource1765610000000().down(runner);
    await new FeesFromTheirSource1765610000000().up(runner);
  } finally {
    await client.end();
  }
  const rows = await queryDatabase<{ entry_id: string; link_pending: boolean }>(
    database.url,
    `SELECT entry_id, link_pending FROM etsy_ledger_entry WHERE user_id = $1 ORDER BY entry_id`,
    [id],
  );
  expect(rows).toEqual([
    { entry_id: 'E1', link_pending: true },
    { entry_id: 'E2', link_pending: true },
    { entry_id: 'E3', link_pending: false },
  ]);
});
