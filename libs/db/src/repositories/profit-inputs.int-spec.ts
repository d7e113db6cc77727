import type { DataSource } from 'typeorm';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository, type EtsyReceiptRow } from './etsy-orders.repository';
import { ProfitInputsRepository } from './profit-inputs.repository';
import { UsersRepository } from './users.repository';

/**
 * What the profit engine reads beyond the mapped columns (ADR 0026): `is_paid`, the settled
 * refunds with their dates from the stored receipt payload, each shop's ledger currency (the
 * payment account's) and the seller's VAT registration.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('inputs');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'inputs').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

function receipt(receiptId: string, isPaid: boolean, payload: unknown): EtsyReceiptRow {
  return {
    receiptId,
    status: isPaid ? 'paid' : 'open',
    isPaid,
    isShipped: false,
    buyerName: 'B',
    buyerUserId: null,
    zip: null,
    countryIso: null,
    currency: 'USD',
    grandtotalMinor: 5000,
    subtotalMinor: 5000,
    totalPriceMinor: 5000,
    totalShippingMinor: 0,
    totalTaxMinor: 0,
    totalVatMinor: null,
    discountMinor: 0,
    giftWrapMinor: null,
    refundedMinor: 2000,
    orderedAt: new Date('2026-03-14T10:00:00Z'),
    sourceUpdatedAt: new Date('2026-03-14T10:00:00Z'),
    lines: [],
    payload,
  };
}

const ledger = (entryId: string, currency: 'GBP' | 'USD') => ({
  entryId,
  ledgerType: 'transaction',
  referenceType: 'transaction',
  referenceId: `t-${entryId}`,
  parentEntryId: null,
  currency,
  amountMinor: -20,
  entryCreatedAt: new Date('2026-03-14T10:00:00Z'),
  payload: { entry_id: entryId },
});

it('reads is_paid, dated refunds, the shop ledger currency and the VAT registration', async () => {
  const user = await new UsersRepository(dataSource).create({
    email: `inputs-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'I',
    lastName: 'N',
  });
  const userId = user!.id;
  const etsy = new EtsyOrdersRepository(dataSource);
  const money = (amount: number, divisor = 100) => ({ amount, divisor, currency_code: 'USD' });
  await etsy.upsertReceipts(
    userId,
    'S1',
    [
      receipt('R1', true, {
        refunds: [
          { amount: money(1500), created_timestamp: 1775124000, status: 'SUCCESS' }, // 2026-04-02T10:00:00Z
          { amount: money(9900), created_timestamp: 1775210400, status: 'FAILED' },
          { amount: money(50, 10), created_timestamp: 1775296800, status: null }, // 5.0 USD, divisor 10
        ],
      }),
      receipt('R2', false, { refunds: 'not a list' }),
    ],
    new Date(),
  );
  await etsy.upsertLedgerEntries(userId, 'S1', [ledger('E1', 'GBP'), ledger('E2', 'GBP'), ledger('E3', 'USD')]);
  await etsy.upsertLedgerEntries(userId, 'S2', [ledger('E4', 'USD')]);
  await queryDatabase(
    database.url,
    `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version, vat_registered)
     VALUES ($1, 'etsy', 'S1', 'gb', 'x', 1, true)`,
    [userId],
  );

  const inputs = await new ProfitInputsRepository(dataSource).load(userId);
  expect(inputs.receipts.get('S1:R1')).toMatchObject({
    isPaid: true,
    refunds: [
      { amountMinor: 1500, refundedAt: new Date('2026-04-02T10:00:00Z') },
      { amountMinor: 500, refundedAt: new Date('2026-04-04T10:00:00Z') },
    ],
  });
  expect(inputs.receipts.get('S1:R2')).toMatchObject({ isPaid: false, refunds: [] });
  expect(inputs.ledgerCurrencies).toEqual(
    new Map([
      ['S1', 'GBP'],
      ['S2', 'USD'],
    ]),
  );
  expect(inputs.settings).toEqual({ bankCountry: 'GB', printifyCostReading: 'per_unit', vatRegistered: true });
});
