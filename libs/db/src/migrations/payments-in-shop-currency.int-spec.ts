import { Client } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { createFixtureUser, createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository } from '../repositories/etsy-orders.repository';
import { PaymentsInShopCurrency1765700600000 } from './1765700600000-payments-in-shop-currency';

/**
 * A payment stored before the mapper read issue #564's signature (buyer-currency label on
 * shop-currency values, integrations.md §a.6) is relabelled in the shop currency; a payment
 * genuinely in another currency is left alone.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('payments_shop_currency');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'payments-shop-currency',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const money = (amount: number, currency_code: string) => ({ amount, divisor: 100, currency_code });

function storedAsBefore(paymentId: string, label: string, buyer: string) {
  return {
    paymentId,
    receiptId: `r-${paymentId}`,
    currency: label,
    amountGrossMinor: 5313,
    amountFeesMinor: 184,
    amountNetMinor: 5129,
    postedGrossMinor: null,
    postedFeesMinor: null,
    postedNetMinor: null,
    adjustedGrossMinor: null,
    adjustedFeesMinor: null,
    adjustedNetMinor: null,
    status: 'settled',
    sourceUpdatedAt: new Date('2026-03-14T00:00:00Z'),
    payload: { amount_gross: money(5313, label), currency: label, shop_currency: 'USD', buyer_currency: buyer },
  };
}

it('relabels payments bearing the buyer-currency signature in the shop currency', async () => {
  const owner = await createFixtureUser(dataSource, 'payments-shop-currency');
  await new EtsyOrdersRepository(dataSource).upsertPayments(
    owner,
    'e1',
    [storedAsBefore('1', 'DKK', 'DKK'), storedAsBefore('2', 'EUR', 'DKK')] as never,
    new Date(),
  );
  // As the migrating login (the tables' owner), as prepareDatabase runs migrations.
  const client = new Client({ connectionString: database.url });
  await client.connect();
  try {
    const runner = { query: (text: string) => client.query(text).then((result) => result.rows) } as QueryRunner;
    await new PaymentsInShopCurrency1765700600000().up(runner);
  } finally {
    await client.end();
  }
  const rows = await queryDatabase<{ payment_id: string; currency: string; amount_fees_minor: string }>(
    database.url,
    `SELECT payment_id, currency, amount_fees_minor FROM etsy_payment WHERE user_id = $1 ORDER BY payment_id`,
    [owner],
  );
  expect(rows).toEqual([
    { payment_id: '1', currency: 'USD', amount_fees_minor: '184' },
    { payment_id: '2', currency: 'EUR', amount_fees_minor: '184' },
  ]);
});
