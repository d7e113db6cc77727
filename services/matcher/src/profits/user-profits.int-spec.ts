import type { DataSource } from 'typeorm';
import pino from 'pino';
import { createDataSource, OrderProfitsRepository, prepareDatabase } from '@pod/db';
import {
  createFixtureUser,
  createTestDatabase,
  goldenEurOrder,
  goldenUsdOrder,
  queryDatabase,
  storeGoldenRates,
  storeProfitOrder,
  type TestDatabase,
} from '@pod/testing';
import { UserMatcher } from '../user-matcher';
import { ProfitJobs } from './profit-jobs';
import { UserProfits } from './user-profits';

/**
 * Stored profits against real PostgreSQL: the golden orders' figures as the engine computes
 * them (hand-worked), a rerun writes nothing, a refund and a late ledger entry change the stored profit,
 * new rates turn rate_unavailable into ok (through refigure-profits), another user untouched.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('profits');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 }, 'profits-test').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const NOW = new Date('2026-03-20T12:00:00Z');

interface ProfitRow {
  etsy_receipt_id: string;
  currency: string;
  figures: string;
  revenue_minor: string | null;
  costs_minor: string | null;
  net_profit_minor: string | null;
  has_estimated_fees: boolean;
}

const profitsOf = (userId: string, currency: string) =>
  queryDatabase<ProfitRow>(
    database.url,
    `SELECT r.etsy_receipt_id, p.currency, p.figures, p.revenue_minor, p.costs_minor, p.net_profit_minor, p.has_estimated_fees
     FROM order_profit p JOIN order_record r ON r.id = p.order_record_id WHERE p.user_id = $1 AND p.currency = $2 ORDER BY r.etsy_receipt_id`,
    [userId, currency],
  );

async function seller(prefix: string): Promise<string> {
  const userId = await createFixtureUser(dataSource, prefix);
  await storeProfitOrder(dataSource, userId, goldenUsdOrder(prefix));
  await storeProfitOrder(dataSource, userId, goldenEurOrder(prefix));
  await new UserMatcher(dataSource).matchUser(userId, NOW);
  return userId;
}

describe('compute-profits', () => {
  let a: string;
  let b: string;
  const profits = () => new UserProfits(dataSource, () => NOW);

  beforeAll(async () => {
    await storeGoldenRates(dataSource, ['2026-03-13']);
    a = await seller('pa');
    b = await seller('pb');
  });

  it("stores the golden figures: the USD order in USD and the EUR order in GBP, to the cent", async () => {
    expect(await profits().computeUser(a)).toEqual({ records: 2, computed: 2, written: 6 });
    const usd = await profitsOf(a, 'USD');
    expect(usd[0]).toMatchObject({ etsy_receipt_id: 'pa9001', figures: 'ok', revenue_minor: '3500', costs_minor: '2109', net_profit_minor: '1391', has_estimated_fees: true });
    // EUR order in GBP, at EUR→GBP 0.85 and USD→GBP 0.8 (see storeGoldenRates): revenue 46.00 × 0.85 = 39.10;
    // costs 12.00 + 4.00 + 0.00 (Printify, USD × 0.8) + 2.13 + 2.54 + 0.51 + 0.19 (EUR fees × 0.85) + 0.16 (listing USD 0.20) = 21.53.
    const gbp = await profitsOf(a, 'GBP');
    expect(gbp[1]).toMatchObject({ etsy_receipt_id: 'pa9002', figures: 'ok', revenue_minor: '3910', costs_minor: '2153', net_profit_minor: '1757' });
  });

  it('a second run computes and writes nothing; the other user is untouched', async () => {
    expect(await profits().computeUser(a)).toEqual({ records: 2, computed: 0, written: 0 });
    expect(await profits().computeUser(a, { force: true })).toEqual({ records: 2, computed: 2, written: 0 });
    expect(await profitsOf(b, 'USD')).toEqual([]);
  });

  it('a refund and a late ledger entry change the stored profit after recompute', async () => {
    // Refund of 10.00 of 37.13 paid: revenue share 10.00 × 35.00 / 37.13 = 9.426… → 9.43; revenue 35.00 − 9.43 = 25.57.
    await storeProfitOrder(dataSource, a, goldenUsdOrder('pa', { refundedMinor: 1000, version: 1 }));
    expect(await profits().computeUser(a)).toMatchObject({ computed: 1, written: 3 });
    expect((await profitsOf(a, 'USD'))[0]).toMatchObject({ revenue_minor: '2557', costs_minor: '2109', net_profit_minor: '448' });
    // A late Offsite Ads fee of 5.25 linked to the receipt: costs 21.09 + 5.25 = 26.34.
    await storeProfitOrder(dataSource, a, goldenUsdOrder('pa', { refundedMinor: 1000, version: 1, ledger: [{ id: 'pa-late', type: 'offsite_ads_fee', amountMinor: -525 }] }));
    expect(await profits().computeUser(a)).toMatchObject({ computed: 1, written: 3 });
    expect((await profitsOf(a, 'USD'))[0]).toMatchObject({ costs_minor: '2634', net_profit_minor: '-77' });
  });

  it('an order without a rate is rate_unavailable until the rates come; refigure-profits queues its user', async () => {
    const userId = await createFixtureUser(dataSource, 'late');
    await storeProfitOrder(dataSource, userId, goldenEurOrder('pl', { orderedAt: new Date('2026-03-18T09:00:00Z') }));
    await new UserMatcher(dataSource).matchUser(userId, NOW);
    await profits().computeUser(userId);
    const [waiting] = await profitsOf(userId, 'GBP');
    expect(waiting).toMatchObject({ figures: 'rate_unavailable', revenue_minor: null, net_profit_minor: null });
    // EUR shown in EUR needs only the USD rate (Printify, listing): still missing for the 18th.
    expect((await profitsOf(userId, 'EUR'))[0]).toMatchObject({ figures: 'rate_unavailable' });

    const added: { name: string; data: { userId: string; force?: boolean } }[] = [];
    const queue = { add: async (name: string, data: { userId: string; force?: boolean }) => (added.push({ name, data }), {}) };
    const jobs = new ProfitJobs(queue as never, profits(), new OrderProfitsRepository(dataSource), pino({ level: 'silent' }));
    await storeGoldenRates(dataSource, ['2026-03-17', '2026-03-18']);
    await jobs.refigure({ data: { previousLatestRateDate: '2026-03-13' } } as never);
    expect(added.map((job) => job.data.userId)).toContain(userId);
    expect(added.every((job) => job.name === 'compute-profits' && job.data.force === true)).toBe(true);
    await jobs.compute({ data: { userId, reason: 'rates', force: true } } as never);
    expect((await profitsOf(userId, 'GBP'))[0]).toMatchObject({ figures: 'ok', revenue_minor: '3910', net_profit_minor: '1757' });
  });

  it('batches of any size store the same figures: each record written once, across batch boundaries', async () => {
    const whole = await seller('pw');
    const batched = await seller('pz');
    await storeProfitOrder(dataSource, batched, goldenUsdOrder('pz3'));
    await storeProfitOrder(dataSource, whole, goldenUsdOrder('pw3'));
    await new UserMatcher(dataSource).matchUser(batched, NOW);
    await new UserMatcher(dataSource).matchUser(whole, NOW);
    expect(await profits().computeUser(whole)).toEqual({ records: 3, computed: 3, written: 9 });
    // Two records per write: batches of 2 and 1 records (6 and 3 rows).
    expect(await new UserProfits(dataSource, () => NOW, 2).computeUser(batched)).toEqual({ records: 3, computed: 3, written: 9 });
    for (const currency of ['USD', 'EUR', 'GBP']) {
      const figures = async (userId: string, prefix: string) =>
        (await profitsOf(userId, currency)).map((row) => ({ ...row, etsy_receipt_id: row.etsy_receipt_id.slice(prefix.length) }));
      expect(await figures(batched, 'pz')).toEqual(await figures(whole, 'pw'));
    }
    expect(await new UserProfits(dataSource, () => NOW, 1).computeUser(batched, { force: true })).toEqual({ records: 3, computed: 3, written: 0 });
  });

  it('a record that goes takes its figures along (cascade)', async () => {
    const [{ n }] = await queryDatabase<{ n: string }>(database.url, `SELECT count(*) AS n FROM order_profit WHERE user_id = $1`, [a]);
    await queryDatabase(database.url, `DELETE FROM order_record WHERE user_id = $1 AND etsy_receipt_id = 'pa9002'`, [a]);
    const [{ n: after }] = await queryDatabase<{ n: string }>(database.url, `SELECT count(*) AS n FROM order_profit WHERE user_id = $1`, [a]);
    expect(Number(after)).toBe(Number(n) - 3);
  });
});
