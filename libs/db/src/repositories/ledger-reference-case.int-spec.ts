import { Client } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { LedgerReferenceTypesLowerCase1765700600001 } from '../migrations/1765700600001-ledger-reference-types-lower-case';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository, type EtsyLedgerEntryRow, type EtsyReceiptRow } from './etsy-orders.repository';
import { inTenantScope } from './tenant-scope';
import { UsersRepository } from './users.repository';

/**
 * integrations.md §a.7: Etsy publishes no enum of ledger or reference types (issue #442), and its
 * spelling of types varies in case (`PAYMENT_GROSS` beside `transaction`). An entry whose
 * `reference_type` comes in another case or with spaces is marked as waiting for its receipt, so
 * the link pass must find it too, instead of leaving it waiting for good.
 */
let database: TestDatabase;
let dataSource: DataSource;
const SHOP = '5152';
const at = new Date('2026-03-14T10:00:00Z');

beforeAll(async () => {
  database = await createTestDatabase('reference_case');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'reference-case',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const receipt: EtsyReceiptRow = {
  receiptId: '1370762297',
  status: 'paid',
  isPaid: true,
  isShipped: false,
  buyerName: 'B',
  buyerUserId: null,
  zip: null,
  countryIso: null,
  currency: 'USD',
  grandtotalMinor: 1000,
  subtotalMinor: 1000,
  totalPriceMinor: 1000,
  totalShippingMinor: 0,
  totalTaxMinor: 0,
  totalVatMinor: null,
  discountMinor: 0,
  giftWrapMinor: null,
  refundedMinor: 0,
  orderedAt: at,
  sourceUpdatedAt: at,
  lines: [
    {
      transactionId: '4100000001',
      listingId: '1500000001',
      productId: null,
      title: 'Mug',
      sku: null,
      quantity: 1,
      currency: 'USD',
      unitPriceMinor: 1000,
      shippingMinor: null,
      isDigital: false,
    },
  ],
  payload: { receipt_id: 1370762297 },
};

const entry = (entryId: string, type: string, referenceType: string, referenceId: string): EtsyLedgerEntryRow => ({
  entryId,
  ledgerType: type,
  referenceType,
  referenceId,
  parentEntryId: null,
  currency: 'USD',
  amountMinor: -65,
  entryCreatedAt: at,
  payload: { entry_id: entryId },
});

it('links entries whatever the case of their reference_type', async () => {
  const user = await new UsersRepository(dataSource).create({
    email: `case-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'C',
    lastName: 'S',
  });
  const userId = user!.id;
  const etsy = new EtsyOrdersRepository(dataSource);
  await etsy.upsertReceipts(userId, SHOP, [receipt], at);
  await etsy.upsertLedgerEntries(userId, SHOP, [
    entry('E1', 'transaction', 'Transaction', '4100000001'),
    entry('E2', 'offsite_ads_fee', ' RECEIPT ', '1370762297'),
  ]);
  await etsy.linkPendingLedgerEntries(userId, SHOP);
  const rows: { entry_id: string; receipt_id: string | null; link_pending: boolean }[] = await inTenantScope(
    dataSource,
    userId,
    (db) =>
      db.query(
        `SELECT entry_id, receipt_id, link_pending FROM etsy_ledger_entry WHERE user_id = $1 ORDER BY entry_id`,
        [userId],
      ),
  );
  expect(rows).toEqual([
    { entry_id: 'E1', receipt_id: '1370762297', link_pending: false },
    { entry_id: 'E2', receipt_id: '1370762297', link_pending: false },
  ]);
});

it('migration 1765700600001 lower-cases reference types stored before, and queues them for linking', async () => {
  const [{ id }] = await queryDatabase<{ id: string }>(
    database.url,
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ('case-migration@example.com', 'x', 'C', 'M') RETURNING id`,
  );
  await queryDatabase(
    database.url,
    `INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, reference_type, reference_id, parent_entry_id,
       currency, amount_minor, entry_created_at, link_pending, payload, payload_hash)
     VALUES ($1, 'S', 'E1', 'transaction', 'Transaction', 'T1', NULL, 'USD', -65, now(), false, '{}', 'h'),
            ($1, 'S', 'E2', 'prolist', 'Etsy', '0', NULL, 'USD', -100, now(), false, '{}', 'h')`,
    [id],
  );
  // As the migrating login (the tables' owner), as prepareDatabase runs migrations.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const runner = { query: (text: string) => client.query(text).then((result) => result.rows) } as QueryRunner;
    await new LedgerReferenceTypesLowerCase1765700600001().up(runner);
  } finally {
    await client.end();
  }
  const rows = await queryDatabase<{ entry_id: string; reference_type: string; link_pending: boolean }>(
    database.url,
    `SELECT entry_id, reference_type, link_pending FROM etsy_ledger_entry WHERE user_id = $1 ORDER BY entry_id`,
    [id],
  );
  expect(rows).toEqual([
    { entry_id: 'E1', reference_type: 'transaction', link_pending: true },
    { entry_id: 'E2', reference_type: 'etsy', link_pending: false },
  ]);
});
