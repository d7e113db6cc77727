import type { DataSource, EntityManager } from 'typeorm';
import { createFixtureUser, createTestDatabase, type TestDatabase } from '@pod/testing';
import { oldPayoutsPage } from '../../../../bench/payouts/old-payouts-read';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { PayoutsRepository } from './payouts.repository';
import { withTenant } from './tenant-scope';

/**
 * The Payouts page read by window (docs/adr/0027, amendment of 2026-11-28): the same answer as
 * the old walk of the whole ledger on a ledger with every tie the order breaks (same instant,
 * no sequence number, ids of different lengths, two shops, a balance break, a sequence gap),
 * the entries since the last deposit, and a page that reads its payouts' entries, not the ledger.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('payouts');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'payouts').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const T0 = Date.parse('2026-09-01T00:00:00Z');
interface Entry {
  shop: string;
  id: string;
  type: string;
  amount: number;
  balance: number | null;
  seq: number | null;
  minute: number;
}

async function insertEntries(userId: string, entries: Entry[]): Promise<void> {
  await withTenant(dataSource, userId, (db) =>
    db.query(
      `INSERT INTO etsy_ledger_entry (user_id, shop_id, entry_id, ledger_type, currency, amount_minor, entry_created_at, link_pending, payload, payload_hash)
       SELECT $1, x.shop, x.id, x.type, 'USD', x.amount, to_timestamp(x.at), false, x.payload, 'h'
       FROM jsonb_to_recordset($2::jsonb) AS x(shop text, id text, type text, amount bigint, at double precision, payload jsonb)`,
      [
        userId,
        JSON.stringify(
          entries.map((e) => ({
            shop: e.shop,
            id: e.id,
            type: e.type,
            amount: e.amount,
            at: (T0 + e.minute * 60_000) / 1000,
            payload: {
              amount: e.amount,
              ...(e.balance === null ? {} : { balance: e.balance }),
              ...(e.seq === null ? {} : { sequence_number: e.seq }),
            },
          })),
        ),
      ],
    ),
  );
}

/** A shop's ledger: sales and fees, a deposit every few entries, with the ties and faults listed above. */
function tangledLedger(shop: string, count: number, offsetMinutes = 0): Entry[] {
  const entries: Entry[] = [];
  let balance = 0;
  for (let i = 1; i <= count; i += 1) {
    const deposit = i % 7 === 0;
    const amount = deposit ? -balance : i % 3 === 0 ? -(i * 7) : 1000 + i;
    balance += amount;
    const reported = i === 17 ? balance + 300 : balance; // a break Etsy's balance shows
    if (i === 17) balance += 300;
    if (i === 23) continue; // an entry we do not hold: a gap
    entries.push({
      shop,
      // ids of 2 and 3 digits: "100" sorts before "99" as text, after it as a number
      id: `${i % 5 === 0 ? 90 + i : 100 + i}`,
      type: deposit ? (i % 2 ? 'DISBURSE2' : 'disburse2') : i % 3 === 0 ? 'transaction' : 'PAYMENT_GROSS',
      amount,
      balance: i === 30 ? null : reported,
      seq: i % 11 === 0 ? null : i,
      // several entries share an instant with the deposit after them
      minute: Math.floor(i / 4) * 60 + offsetMinutes,
    });
  }
  return entries;
}

const pageOf = (userId: string, limit: number, offset: number) =>
  new PayoutsRepository(dataSource).page(userId, limit, offset);

describe('PayoutsRepository', () => {
  it('gives every page the same deposits, sums, entries and checks as the walk of the whole ledger', async () => {
    const [seller, other] = [
      await createFixtureUser(dataSource, 'pay-a'),
      await createFixtureUser(dataSource, 'pay-b'),
    ];
    await insertEntries(seller, [...tangledLedger('shop-a', 60), ...tangledLedger('shop-b', 25, 1)]);
    await insertEntries(other, tangledLedger('shop-a', 30));
    const { total } = await pageOf(seller, 50, 0);
    expect(total).toBe(8 + 3);
    for (const size of [1, 3, 50]) {
      for (let offset = 0; offset <= total; offset += size) {
        const { payouts } = await pageOf(seller, size, offset);
        expect(payouts).toEqual(await oldPayoutsPage(dataSource, seller, size, offset));
      }
    }
    const all = (await pageOf(seller, 50, 0)).payouts;
    expect(all.some((p) => p.entries.some((e) => e.missingBefore > 0))).toBe(true);
    expect(all.some((p) => p.entries.some((e) => e.balanceBreakMinor === 300))).toBe(true);
    expect((await pageOf(other, 50, 0)).total).toBe(4);
  });

  it('lists per shop the entries since its last deposit, checked the same way', async () => {
    const seller = await createFixtureUser(dataSource, 'pay-c');
    await insertEntries(seller, [
      { shop: 's1', id: '1', type: 'PAYMENT_GROSS', amount: 5000, balance: 5000, seq: 1, minute: 0 },
      { shop: 's1', id: '2', type: 'DISBURSE2', amount: -4000, balance: 1000, seq: 2, minute: 1 },
      { shop: 's1', id: '3', type: 'prolist', amount: -150, balance: 850, seq: 3, minute: 2 },
      { shop: 's1', id: '5', type: 'PAYMENT_GROSS', amount: 2000, balance: 2700, seq: 5, minute: 3 },
      { shop: 's2', id: '1', type: 'PAYMENT_GROSS', amount: 700, balance: 900, seq: 8, minute: 0 },
    ]);
    const unpaid = await new PayoutsRepository(dataSource).unpaid(seller);
    expect(
      unpaid.map(({ shopId, openingMinor, balanceNowMinor, sinceDepositAt }) => ({
        shopId,
        openingMinor,
        balanceNowMinor,
        sinceDepositAt,
      })),
    ).toEqual([
      { shopId: 's1', openingMinor: 1000, balanceNowMinor: 2700, sinceDepositAt: new Date(T0 + 60_000).toISOString() },
      { shopId: 's2', openingMinor: 200, balanceNowMinor: 900, sinceDepositAt: null },
    ]);
    expect(unpaid[0].entries.map((e) => [e.entryId, e.balanceBreakMinor, e.missingBefore])).toEqual([
      ['3', 0, 0],
      ['5', -150, 1],
    ]);
    expect(unpaid[0].sums.map((s) => [s.ledgerType, s.sumMinor])).toEqual([
      ['PAYMENT_GROSS', 2000],
      ['prolist', -150],
    ]);
    expect(unpaid[1].entries).toHaveLength(1);
  });

  it('reads the entries of the page’s payouts, not the whole ledger', async () => {
    const seller = await createFixtureUser(dataSource, 'pay-d');
    await insertEntries(seller, tangledLedger('big', 4000));
    const read = (manager: EntityManager) => new PayoutsRepository(manager).page(seller, 2, 0);
    const fetched = await withTenant(dataSource, seller, async (db) => {
      await read(db);
      const [row] = (await db.query(
        `SELECT pg_stat_get_xact_tuples_returned('etsy_ledger_entry'::regclass) + pg_stat_get_xact_tuples_fetched('etsy_ledger_entry'::regclass) AS n`,
      )) as { n: string }[];
      return Number(row.n);
    });
    // two windows of about 7 entries, their parents, the deposits found by the index: not 4,000
    expect(fetched).toBeLessThan(400);
  });
});
