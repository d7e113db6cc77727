import type { DataSource } from 'typeorm';
import pino from 'pino';
import {
  createDataSource,
  EtsyOrdersRepository,
  FxRatesRepository,
  OrderProfitsRepository,
  prepareDatabase,
} from '@pod/db';
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
import { UserMatcher, UserProfits } from '@pod/orders';
import { ProfitJobs } from './profit-jobs';

/**
 * Stored profits against real PostgreSQL: the golden orders' figures as the engine computes
 * them (hand-worked), a rerun writes nothing, a refund and a late ledger entry change the stored profit,
 * an order whose ECB day is not loaded yet is provisional and new rates make it final, new rates turn
 * rate_unavailable into ok (both through refigure-profits), another user untouched.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('profits');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 },
    'profits-test',
  ).initialize();
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

  it('stores the golden figures: the USD order in USD and the EUR order in GBP, to the cent', async () => {
    expect(await profits().computeUser(a)).toEqual({ records: 2, computed: 2, written: 6 });
    const usd = await profitsOf(a, 'USD');
    expect(usd[0]).toMatchObject({
      etsy_receipt_id: 'pa9001',
      figures: 'ok',
      revenue_minor: '3500',
      costs_minor: '2109',
      net_profit_minor: '1391',
      has_estimated_fees: true,
    });
    // EUR order in GBP, at EUR→GBP 0.85 and USD→GBP 0.8 (see storeGoldenRates): revenue 46.00 × 0.85 = 39.10;
    // costs 12.00 + 4.00 + 0.00 (Printify, USD × 0.8) + 2.13 + 2.54 + 0.51 + 0.19 (EUR fees × 0.85) + 0.16 (listing USD 0.20) = 21.53.
    const gbp = await profitsOf(a, 'GBP');
    expect(gbp[1]).toMatchObject({
      etsy_receipt_id: 'pa9002',
      figures: 'ok',
      revenue_minor: '3910',
      costs_minor: '2153',
      net_profit_minor: '1757',
    });
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
    expect((await profitsOf(a, 'USD'))[0]).toMatchObject({
      revenue_minor: '2557',
      costs_minor: '2109',
      net_profit_minor: '448',
    });
    // A late Offsite Ads fee of 5.25 linked to the receipt: costs 21.09 + 5.25 = 26.34.
    await storeProfitOrder(
      dataSource,
      a,
      goldenUsdOrder('pa', {
        refundedMinor: 1000,
        version: 1,
        ledger: [{ id: 'pa-late', type: 'offsite_ads_fee', amountMinor: -525 }],
      }),
    );
    expect(await profits().computeUser(a)).toMatchObject({ computed: 1, written: 3 });
    expect((await profitsOf(a, 'USD'))[0]).toMatchObject({ costs_minor: '2634', net_profit_minor: '-77' });
  });

  const refigureJobs = () => {
    const added: { name: string; data: { userId: string; force?: boolean } }[] = [];
    const queue = {
      add: async (name: string, data: { userId: string; force?: boolean }) => (added.push({ name, data }), {}),
    };
    return {
      added,
      jobs: new ProfitJobs(
        queue as never,
        profits(),
        new OrderProfitsRepository(dataSource),
        pino({ level: 'silent' }),
      ),
    };
  };

  it("an order whose ECB day is not loaded yet is provisional at the latest day's rates; refigure-profits makes it final at its own", async () => {
    const userId = await createFixtureUser(dataSource, 'prov');
    await storeProfitOrder(dataSource, userId, goldenEurOrder('pv', { orderedAt: new Date('2026-03-18T09:00:00Z') }));
    await new UserMatcher(dataSource).matchUser(userId, NOW);
    await profits().computeUser(userId);
    // Wednesday 18 at Friday 13's rates: the golden figures (EUR→GBP 0.85, USD→GBP 0.8), summed, marked provisional.
    expect((await profitsOf(userId, 'GBP'))[0]).toMatchObject({
      figures: 'provisional',
      revenue_minor: '3910',
      costs_minor: '2153',
      net_profit_minor: '1757',
    });
    expect((await profitsOf(userId, 'EUR'))[0]).toMatchObject({ figures: 'provisional' });
    const [{ provisional, rate_date }] = await queryDatabase<{ provisional: unknown; rate_date: string }>(
      database.url,
      `SELECT breakdown -> 'provisional' AS provisional, breakdown -> 'costLines' -> 0 ->> 'rateDate' AS rate_date FROM order_profit WHERE user_id = $1 AND currency = 'GBP'`,
      [userId],
    );
    expect(provisional).toEqual({ rateDate: '2026-03-13', awaitingRateDate: '2026-03-18' });
    expect(rate_date).toBe('2026-03-13');
    // Not final, so every run figures it again; nothing new, nothing written.
    expect(await profits().computeUser(userId)).toEqual({ records: 1, computed: 1, written: 0 });
    // Provisional figures are refigured after any new rates, even a correction of an older day.
    expect(await new OrderProfitsRepository(dataSource).usersToRefigure('2026-03-25')).toContain(userId);

    // Tuesday 17 and Wednesday 18 arrive, the 18th at GBP 0.80 and USD 1.00 per EUR (EUR→GBP 0.8, USD→GBP 0.8).
    const { added, jobs } = refigureJobs();
    await new FxRatesRepository(dataSource).upsertRates(
      [
        { date: '2026-03-17', currency: 'GBP', perEur: '0.85' },
        { date: '2026-03-17', currency: 'USD', perEur: '1.0625' },
        { date: '2026-03-18', currency: 'GBP', perEur: '0.8' },
        { date: '2026-03-18', currency: 'USD', perEur: '1' },
      ],
      'test',
      new Date(),
    );
    await jobs.refigure({ data: { previousLatestRateDate: '2026-03-13' } } as never);
    expect(added.filter((job) => job.data.userId === userId)).toEqual([
      { name: 'compute-profits', data: { userId, reason: 'rates' } },
    ]);
    await jobs.compute({ data: { userId, reason: 'rates' } } as never);
    // Revenue 46.00 × 0.8 = 36.80. Costs: Printify 15.00 + 5.00 USD × 0.8 = 16.00; processing 2.51 → 2.008 → 2.01; transaction 2.99 → 2.392 → 2.39;
    // VAT on fees 0.60 → 0.48; regulatory 0.22 → 0.176 → 0.18; listing USD 0.20 → 0.16. Total 21.22; profit 15.58.
    expect((await profitsOf(userId, 'GBP'))[0]).toMatchObject({
      figures: 'ok',
      revenue_minor: '3680',
      costs_minor: '2122',
      net_profit_minor: '1558',
    });
    for (const currency of ['USD', 'EUR'])
      expect((await profitsOf(userId, currency))[0]).toMatchObject({ figures: 'ok' });
    const [after] = await queryDatabase<{ provisional: unknown; rate_date: string }>(
      database.url,
      `SELECT breakdown -> 'provisional' AS provisional, breakdown -> 'costLines' -> 0 ->> 'rateDate' AS rate_date FROM order_profit WHERE user_id = $1 AND currency = 'GBP'`,
      [userId],
    );
    expect(after).toEqual({ provisional: null, rate_date: '2026-03-18' });
  });

  it('an order past the look-back is rate_unavailable until the rates come; refigure-profits queues its user', async () => {
    const userId = await createFixtureUser(dataSource, 'late');
    // 8 April: more than 10 days after every stored rate day, so no day stands in.
    await storeProfitOrder(dataSource, userId, goldenEurOrder('pl', { orderedAt: new Date('2026-04-08T09:00:00Z') }));
    await new UserMatcher(dataSource).matchUser(userId, NOW);
    await profits().computeUser(userId);
    const [waiting] = await profitsOf(userId, 'GBP');
    expect(waiting).toMatchObject({ figures: 'rate_unavailable', revenue_minor: null, net_profit_minor: null });
    // EUR shown in EUR needs only the USD rate (Printify, listing): still missing for the 8th.
    expect((await profitsOf(userId, 'EUR'))[0]).toMatchObject({ figures: 'rate_unavailable' });

    const { added, jobs } = refigureJobs();
    await storeGoldenRates(dataSource, ['2026-04-07', '2026-04-08']);
    await jobs.refigure({ data: { previousLatestRateDate: '2026-03-18' } } as never);
    expect(added.map((job) => job.data.userId)).toContain(userId);
    expect(added.every((job) => job.name === 'compute-profits' && job.data.force === undefined)).toBe(true);
    await jobs.compute({ data: { userId, reason: 'rates' } } as never);
    expect((await profitsOf(userId, 'GBP'))[0]).toMatchObject({
      figures: 'ok',
      revenue_minor: '3910',
      net_profit_minor: '1757',
    });
  });

  it("shop costs at a stand-in day's rates are counted provisional; refigure-profits queues a user whose only provisional items they are, and new rates make them final", async () => {
    const userId = await createFixtureUser(dataSource, 'provshop');
    // No order at all: one Etsy Ads charge of 1.50 USD on Thursday 19 (rates loaded to Wednesday 18).
    await new EtsyOrdersRepository(dataSource).upsertLedgerEntries(userId, 'ps-shop', [
      {
        entryId: '7001',
        ledgerType: 'prolist',
        referenceType: null,
        referenceId: null,
        parentEntryId: null,
        currency: 'USD',
        amountMinor: -150,
        entryCreatedAt: new Date('2026-03-19T09:00:00Z'),
        payload: { entry_id: 7001, amount: -150, balance: -150, sequence_number: 1 },
      },
    ]);
    await profits().computeUser(userId);
    const shopCostDays = () =>
      queryDatabase<{ currency: string; cost_minor: string; provisional: number; without_rate: number }>(
        database.url,
        `SELECT currency, cost_minor::text, provisional, without_rate FROM shop_cost_day WHERE user_id = $1 ORDER BY currency`,
        [userId],
      );
    // At Wednesday 18's rates (1 USD and 0.80 GBP per EUR): 1.50 EUR, 1.20 GBP, provisional; USD needs no rate.
    expect(await shopCostDays()).toEqual([
      { currency: 'EUR', cost_minor: '150', provisional: 1, without_rate: 0 },
      { currency: 'GBP', cost_minor: '120', provisional: 1, without_rate: 0 },
      { currency: 'USD', cost_minor: '150', provisional: 0, without_rate: 0 },
    ]);
    expect(await new OrderProfitsRepository(dataSource).usersToRefigure('2026-03-25')).toContain(userId);

    await new FxRatesRepository(dataSource).upsertRates(
      [
        { date: '2026-03-19', currency: 'GBP', perEur: '0.9' },
        { date: '2026-03-19', currency: 'USD', perEur: '1' },
      ],
      'test',
      new Date(),
    );
    await profits().computeUser(userId);
    // Thursday 19's own rates (1 USD and 0.90 GBP per EUR): 1.50 EUR, 1.35 GBP, final.
    expect(await shopCostDays()).toEqual([
      { currency: 'EUR', cost_minor: '150', provisional: 0, without_rate: 0 },
      { currency: 'GBP', cost_minor: '135', provisional: 0, without_rate: 0 },
      { currency: 'USD', cost_minor: '150', provisional: 0, without_rate: 0 },
    ]);
    expect(await new OrderProfitsRepository(dataSource).usersToRefigure('2026-03-25')).not.toContain(userId);
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
    expect(await new UserProfits(dataSource, () => NOW, 2).computeUser(batched)).toEqual({
      records: 3,
      computed: 3,
      written: 9,
    });
    for (const currency of ['USD', 'EUR', 'GBP']) {
      const figures = async (userId: string, prefix: string) =>
        (await profitsOf(userId, currency)).map((row) => ({
          ...row,
          etsy_receipt_id: row.etsy_receipt_id.slice(prefix.length),
        }));
      expect(await figures(batched, 'pz')).toEqual(await figures(whole, 'pw'));
    }
    expect(await new UserProfits(dataSource, () => NOW, 1).computeUser(batched, { force: true })).toEqual({
      records: 3,
      computed: 3,
      written: 0,
    });
  });

  it('a record that goes takes its figures along (cascade)', async () => {
    const [{ n }] = await queryDatabase<{ n: string }>(
      database.url,
      `SELECT count(*) AS n FROM order_profit WHERE user_id = $1`,
      [a],
    );
    await queryDatabase(database.url, `DELETE FROM order_record WHERE user_id = $1 AND etsy_receipt_id = 'pa9002'`, [
      a,
    ]);
    const [{ n: after }] = await queryDatabase<{ n: string }>(
      database.url,
      `SELECT count(*) AS n FROM order_profit WHERE user_id = $1`,
      [a],
    );
    expect(Number(after)).toBe(Number(n) - 3);
  });
});
