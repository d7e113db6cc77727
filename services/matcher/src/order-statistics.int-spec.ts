import type { Job } from 'bullmq';
import pino from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import {
  createDataSource,
  DashboardRollupsRepository,
  MatchRunsRepository,
  OrderViewsRepository,
  prepareDatabase,
  TableStatisticsRepository,
  withTenant,
} from '@pod/db';
import type { ComputeProfitsPayload, MatchUserPayload } from '@pod/queue';
import {
  createFixtureUser,
  createTestDatabase,
  queryDatabase,
  storeSyncedOrders,
  type SideFixture,
  type TestDatabase,
} from '@pod/testing';
import { MatchRunsHandler } from './match-runs.handler';
import { OrderStatistics, UserProfits, UserMatcher } from '@pod/orders';
import { ProfitJobs } from './profits/profit-jobs';

/**
 * Planner statistics of the order tables (docs/adr/0018-rollups.md), on real PostgreSQL with
 * autovacuum off for them (as on the CI machines): the order pages' statements plan safely on
 * tables never analyzed, and the matcher's jobs analyze the tables they filled.
 */
let database: TestDatabase;
let dataSource: DataSource;
const ORDERS = 1_500;
const NOW = new Date('2026-03-20T12:00:00Z');
const logger = pino({ level: 'silent' });

beforeAll(async () => {
  database = await createTestDatabase('order_stats');
  await prepareDatabase({ DATABASE_URL: database.url });
  for (const table of ['order_record', 'order_profit', 'dashboard_day'])
    await queryDatabase(database.url, `ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 },
    'order-stats-test',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** `count` receipts, each with its Printify order, one an hour back from NOW. */
async function seller(label: string, count: number): Promise<string> {
  const userId = await createFixtureUser(dataSource, label);
  const receipts: SideFixture[] = [];
  const orders: SideFixture[] = [];
  for (let i = 0; i < count; i += 1) {
    const orderedAt = new Date(NOW.getTime() - i * 3_600_000);
    receipts.push({
      shopId: 'shop',
      id: String(100_000 + i),
      buyerName: `Buyer ${i}`,
      orderedAt,
      lines: [{ title: 'Mug', sku: 'MUG', quantity: 1 }],
    });
    orders.push({
      shopId: 'pfy',
      id: `p${i}`,
      buyerName: `Buyer ${i}`,
      orderedAt,
      lines: [{ title: 'Mug', sku: 'MUG', quantity: 1 }],
      shopOrderId: String(100_000 + i),
    });
  }
  await storeSyncedOrders(dataSource, userId, receipts, orders);
  return userId;
}

const analyzeCounts = () =>
  queryDatabase<{ relname: string; analyzed: number }>(
    database.url,
    `SELECT relname, analyze_count::int AS analyzed FROM pg_stat_user_tables WHERE relname IN ('order_record', 'order_profit') ORDER BY relname`,
  );

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
const nodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** Runs `work` with every SELECT or INSERT … SELECT it sends replaced by EXPLAIN ANALYZE of it; answers the plans (then rolls back). */
async function plansOf(
  userId: string,
  work: (manager: EntityManager) => Promise<unknown>,
): Promise<{ sql: string; plan: PlanNode }[]> {
  const plans: { sql: string; plan: PlanNode }[] = [];
  await withTenant(dataSource, userId, async (manager) => {
    const query = manager.query.bind(manager);
    manager.query = (async (sql: string, params?: unknown[]) => {
      if (!/order_profit/.test(sql)) return query(sql, params);
      const [row] = await query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      plans.push({ sql, plan: row['QUERY PLAN'][0].Plan });
      return [];
    }) as typeof manager.query;
    await work(manager).catch(() => undefined);
    manager.query = query;
    await query(`SELECT 1`);
  });
  return plans;
}

describe('the order tables’ statistics', () => {
  let userId: string;

  beforeAll(async () => {
    userId = await seller('stats', ORDERS);
    // The jobs' work without their statistics step: the tables stay as a first run leaves them.
    await new UserMatcher(dataSource).matchUser(userId, NOW);
    await new UserProfits(dataSource, () => NOW).computeUser(userId);
  }, 120_000);

  it('never analyzed, the order pages still read each record’s figures by one probe, never the user’s figures once per record', async () => {
    const [table] = await queryDatabase<{ reltuples: number; analyzed: number }>(
      database.url,
      `SELECT c.reltuples::float8 AS reltuples, s.analyze_count::int AS analyzed FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = 'order_profit'`,
    );
    expect(table).toEqual({ reltuples: -1, analyzed: 0 });
    const since = new Date(NOW.getTime() - 30 * 86_400_000);
    const filter = { search: null, status: null, since, source: 'all' as const, archived: false };
    const plans = await plansOf(userId, async (manager) => {
      const views = new OrderViewsRepository(manager);
      await views.listPage(userId, 'USD', filter, 50, 0);
      await views.listPage(userId, 'USD', { ...filter, status: 'matched', search: 'Buyer 1' }, 50, 0);
      await views.matchingPage(
        userId,
        'USD',
        { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z'), status: null },
        15,
        0,
      );
      await views.dashboard(userId, 'USD', new Date(NOW.getTime() - 365 * 86_400_000 + 3_600_000));
      await new DashboardRollupsRepository(manager).refreshDays(userId, ['2026-03-10', '2026-03-11', '2026-03-12']);
    });
    expect(plans.length).toBeGreaterThanOrEqual(5);
    // One scan of the figures in all, or at most one row per probe: never a rescan per record.
    const rescans = plans.flatMap(({ sql, plan }) =>
      nodes(plan)
        .filter((node) => node['Relation Name'] === 'order_profit' && node['Actual Loops'] > 1)
        .filter((node) => (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) / node['Actual Loops'] > 1)
        .map((node) => ({
          cond: (node as unknown as Record<string, unknown>)['Index Cond'],
          filter: (node as unknown as Record<string, unknown>)['Filter'],
          sql: sql.replace(/\s+/g, ' ').slice(0, 160),
          node: node['Node Type'],
          index: node['Index Name'],
          loops: node['Actual Loops'],
          rows: node['Actual Rows'],
        })),
    );
    expect(rescans).toEqual([]);
  });

  it('the match-user and compute-profits jobs analyze the order tables they filled', async () => {
    const other = await seller('stats-jobs', 400);
    const before = await analyzeCounts();
    const statistics = new OrderStatistics(new TableStatisticsRepository(dataSource), logger);
    const runs = new MatchRunsRepository(dataSource);
    const { run } = await runs.queueOrGetQueued(other, 'user');
    await new MatchRunsHandler(
      runs,
      new UserMatcher(dataSource),
      { publish: async () => true },
      logger,
      () => NOW,
      async () => {},
      statistics,
    ).handle({
      data: { runId: run.id },
      attemptsMade: 0,
      opts: { attempts: 1 },
    } as unknown as Job<MatchUserPayload>);
    const jobs = new ProfitJobs(
      { add: async () => undefined } as never,
      new UserProfits(dataSource, () => NOW),
      { usersToRefigure: async () => [] },
      logger,
      statistics,
    );
    await jobs.compute({ data: { userId: other, reason: 'matched' } } as Job<ComputeProfitsPayload>);
    // The server reports an ANALYZE to the statistics views within moments.
    let after = await analyzeCounts();
    for (let tries = 0; tries < 40 && after.some((row, i) => row.analyzed === before[i].analyzed); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = await analyzeCounts();
    }
    // At least once each (a second analyze may follow when the server reports the run's writes after the first).
    expect(after.map((row, i) => ({ relname: row.relname, analyzed: row.analyzed > before[i].analyzed }))).toEqual(
      before.map((row) => ({ relname: row.relname, analyzed: true })),
    );
    const [profit] = await queryDatabase<{ reltuples: number }>(
      database.url,
      `SELECT reltuples::float8 AS reltuples FROM pg_class WHERE relname = 'order_profit'`,
    );
    expect(profit.reltuples).toBeGreaterThanOrEqual(3 * (ORDERS + 400) * 0.9);
  });
});
