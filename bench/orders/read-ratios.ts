import { Client } from 'pg';
import type { DashboardMetricsResponse, OrdersPageResponse } from '@pod/contracts';
import { daysBefore } from '@pod/domain';
import { startTestStack } from '@pod/testing';
import { ensureFreshServerBuild } from '../support/build';
import { GatewaySession } from '../support/gateway-session';
import { dashboardSql, ordersPageSql } from './read-sql';
import { timeRuns, type Timings } from './timing';

export interface ReadMeasurement {
  label: string;
  route: Timings;
  sql: Timings;
  /** Whether the route's answer equals the bare SQL's (totals, counts, the page's ids). */
  agree: boolean;
  detail: string;
}

/** The orders search the bench asks for: a buyer surname (a substring of the searched text), about 1 order in 75. */
export const ORDERS_SEARCH = 'mith';

/**
 * The read routes through the built gateway over HTTP, signed in as the big seller, against
 * their bare SQL (read-sql.ts) on a plain pg connection, in the same run. Each: warm-ups, then
 * the median of the timed runs.
 */
export async function measureReads(
  databaseUrl: string,
  bigUserId: string,
  runs: { warmUps: number; repeats: number },
): Promise<ReadMeasurement[]> {
  ensureFreshServerBuild();
  // The stack's own empty database stays unused: the gateway reads the seeded one.
  const stack = await startTestStack({ DATABASE_URL: databaseUrl });
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const session = await signInAs(stack.baseUrl, client, bigUserId);
    // The gateway's window: orders dated on or after its "now" less the days; the bench takes the same instant.
    const now = Date.now();
    const since = daysBefore(new Date(now), 365);

    let dashboard: DashboardMetricsResponse | null = null;
    let dashboardBare: Awaited<ReturnType<typeof dashboardSql>> | null = null;
    const dashboardRoute = await timeRuns(runs, async () => {
      dashboard = await session.json<DashboardMetricsResponse>(
        'GET',
        '/api/dashboard/metrics?days=365&currency=USD',
        undefined,
        200,
      );
    });
    const dashboardBareTimings = await timeRuns(runs, async () => {
      dashboardBare = await dashboardSql(client, bigUserId, 'USD', since);
    });

    let page: OrdersPageResponse | null = null;
    let pageBare: Awaited<ReturnType<typeof ordersPageSql>> | null = null;
    const pageRoute = await timeRuns(runs, async () => {
      page = await session.json<OrdersPageResponse>(
        'GET',
        `/api/orders?search=${ORDERS_SEARCH}&status=matched&page=1`,
        undefined,
        200,
      );
    });
    const pageBareTimings = await timeRuns(runs, async () => {
      pageBare = await ordersPageSql(
        client,
        bigUserId,
        'USD',
        ORDERS_SEARCH,
        'matched',
        (page as OrdersPageResponse | null)?.pageSize ?? 50,
      );
    });

    return [
      {
        label: 'Dashboard metrics (365 days, USD)',
        route: dashboardRoute,
        sql: dashboardBareTimings,
        ...compareDashboard(dashboard, dashboardBare),
      },
      {
        label: `Orders, first page (search "${ORDERS_SEARCH}", matched)`,
        route: pageRoute,
        sql: pageBareTimings,
        ...comparePage(page, pageBare),
      },
    ];
  } finally {
    await client.end();
    await stack.stop();
  }
}

/**
 * A session of the big seller (seeded with SQL, so without a password): a throwaway account is
 * registered through the gateway and its password hash given to the big seller, who then signs in.
 */
async function signInAs(baseUrl: string, client: Client, userId: string): Promise<GatewaySession> {
  await GatewaySession.register(baseUrl, 'bench-orders-hash');
  const email = 'big-seller@bench.example';
  await client.query(
    `UPDATE app_user SET email = $2, password_hash = (SELECT password_hash FROM app_user WHERE email LIKE 'bench-orders-hash.%' ORDER BY created_at DESC LIMIT 1)
     WHERE id = $1`,
    [userId, email],
  );
  return GatewaySession.signIn(baseUrl, email, GatewaySession.PASSWORD);
}

function compareDashboard(
  route: DashboardMetricsResponse | null,
  bare: Awaited<ReturnType<typeof dashboardSql>> | null,
): { agree: boolean; detail: string } {
  if (!route || !bare) return { agree: false, detail: 'no answer' };
  const agree =
    route.totalRevenue.minor === bare.revenue &&
    route.totalCosts.minor === bare.costs &&
    route.netProfit.minor === bare.profit &&
    route.matchedOrders === bare.matched &&
    route.pendingOrders === bare.pending &&
    route.unmatchedOrders === bare.unmatched &&
    route.ordersWithoutRate === bare.withoutRate &&
    route.hasOrders === bare.hasOrders;
  const money = (minor: number) => (minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
  return {
    agree,
    detail: `revenue ${money(bare.revenue)}, profit ${money(bare.profit)} USD; ${bare.matched.toLocaleString('en-US')} matched`,
  };
}

function comparePage(
  route: OrdersPageResponse | null,
  bare: Awaited<ReturnType<typeof ordersPageSql>> | null,
): { agree: boolean; detail: string } {
  if (!route || !bare) return { agree: false, detail: 'no answer' };
  const agree =
    route.total === bare.total &&
    route.filteredTotal === bare.filteredTotal &&
    JSON.stringify(route.tabCounts) === JSON.stringify(bare.tabCounts) &&
    JSON.stringify(route.orders.map((order) => order.id)) === JSON.stringify(bare.ids);
  return {
    agree,
    detail: `${route.orders.length} rows, ${bare.filteredTotal.toLocaleString('en-US')} of ${bare.total.toLocaleString('en-US')} orders`,
  };
}
