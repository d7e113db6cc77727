import type { DataSource } from 'typeorm';
import { createDataSource, FxRatesRepository, prepareDatabase, ProfitSettingsRepository } from '@pod/db';
import {
  createFixtureUser,
  createTestDatabase,
  goldenUsdOrder,
  queryDatabase,
  storeGoldenRates,
  storeProfitOrder,
  type TestDatabase,
} from '@pod/testing';
import { UserMatcher, UserProfits } from '@pod/orders';

/**
 * Every Etsy fee from its source, through the stored data (ADR 0026): a UK seller whose payment
 * account (the ledger) is in GBP, listing in USD, pays the 2.5% conversion fee on the sale, and
 * VAT on the estimated fees until the seller says they are VAT-registered, which figures the
 * orders again (the settings are in the inputs hash).
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('fees');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'fees').initialize();
  await storeGoldenRates(dataSource, ['2026-03-13']);
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const NOW = new Date('2026-03-20T12:00:00Z');

interface CostLine {
  kind: string;
  source: string;
  original: { minor: number; currency: string };
}

const costLinesOf = async (userId: string) => {
  const [row] = await queryDatabase<{ breakdown: { costLines: CostLine[] } }>(
    database.url,
    `SELECT breakdown FROM order_profit WHERE user_id = $1 AND currency = 'USD'`,
    [userId],
  );
  return row.breakdown.costLines.map(
    (line) => `${line.kind}/${line.source} ${line.original.minor} ${line.original.currency}`,
  );
};

it("estimates the conversion fee from the ledger's currency, and drops VAT on fees once VAT-registered", async () => {
  const userId = await createFixtureUser(dataSource, 'ukseller');
  await queryDatabase(
    database.url,
    `INSERT INTO provider_connection (user_id, provider, shop_id, shop_country, access_token_enc, key_version)
     VALUES ($1, 'etsy', 'uk-usd-shop', 'gb', 'x', 1)`,
    [userId],
  );
  // The golden USD order (items 30.00 + shipping 5.00 = revenue 35.00 USD, payment fee 1.36 USD),
  // its fees in the ledger in GBP, the payment account's currency.
  await storeProfitOrder(
    dataSource,
    userId,
    goldenUsdOrder('uk', {
      etsyShopId: 'uk-usd-shop',
      ledger: [
        { id: 'uk-l1', type: 'transaction', amountMinor: -150, currency: 'GBP' },
        { id: 'uk-l2', type: 'shipping_transaction', amountMinor: -25, currency: 'GBP' },
      ],
    }),
  );
  await new UserMatcher(dataSource).matchUser(userId, NOW);
  const profits = new UserProfits(dataSource, () => NOW);
  await profits.computeUser(userId);

  // Conversion: 2.5% × 35.00 = 0.875 → 0.88 USD. Listing 0.20 USD. Regulatory (GB 0.32%): 0.112 → 0.11 USD.
  // VAT (GB 20%) on the estimates, in USD (the ledger's own VAT covers its fees): (0.20 + 0.88 + 0.11) × 20% = 0.238 → 0.24.
  expect(await costLinesOf(userId)).toEqual([
    'printify_production/printify 1250 USD',
    'printify_shipping/printify 475 USD',
    'printify_tax/printify 0 USD',
    'processing/payment 136 USD',
    'transaction/ledger 175 GBP',
    'listing/estimate 20 USD',
    'currency_conversion/estimate 88 USD',
    'regulatory/estimate 11 USD',
    'vat_on_fees/estimate 24 USD',
  ]);

  expect(await new ProfitSettingsRepository(dataSource).update(userId, { vatRegistered: true })).toEqual({
    outcome: 'updated',
    changed: true,
  });
  expect(await profits.computeUser(userId)).toMatchObject({ computed: 1 });
  expect((await costLinesOf(userId)).filter((line) => line.startsWith('vat_on_fees'))).toEqual([]);
});

it("converts a refund at its own date's rate", async () => {
  // ECB 2026-04-01 (test rates): USD 1.25 and GBP 0.85 per EUR → USD→GBP 0.68 (2026-03-13: 0.8).
  await new FxRatesRepository(dataSource).upsertRates(
    [
      { date: '2026-04-01', currency: 'GBP', perEur: '0.85' },
      { date: '2026-04-01', currency: 'USD', perEur: '1.25' },
    ],
    'test',
    new Date(),
  );
  const userId = await createFixtureUser(dataSource, 'refunded');
  await storeProfitOrder(
    dataSource,
    userId,
    goldenUsdOrder('rf', { refundedMinor: 1000, status: 'partially refunded' }),
  );
  await queryDatabase(database.url, `UPDATE etsy_receipt SET payload = payload || $2::jsonb WHERE user_id = $1`, [
    userId,
    JSON.stringify({
      refunds: [
        // 2026-04-01T10:00:00Z
        {
          amount: { amount: 1000, divisor: 100, currency_code: 'USD' },
          created_timestamp: 1775037600,
          status: 'SUCCESS',
        },
      ],
    }),
  ]);
  await new UserMatcher(dataSource).matchUser(userId, NOW);
  await new UserProfits(dataSource, () => new Date('2026-04-05T12:00:00Z')).computeUser(userId);
  // Revenue 35.00 USD (tax 2.13 not revenue); the refund's revenue share 10.00 × 35.00 / 37.13 = 9.426… → 9.43.
  // In GBP: 35.00 × 0.8 = 28.00 at the order's date, less 9.43 × 0.68 = 6.4124 → 6.41 at the refund's: 21.59
  // (at the order's rate alone it would be 25.57 × 0.8 = 20.46), final, not provisional.
  const [row] = await queryDatabase<{ figures: string; revenue_minor: string }>(
    database.url,
    `SELECT figures, revenue_minor FROM order_profit WHERE user_id = $1 AND currency = 'GBP'`,
    [userId],
  );
  expect(row).toEqual({ figures: 'ok', revenue_minor: '2159' });
});
