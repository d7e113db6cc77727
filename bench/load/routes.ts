import { ANALYTICS_PATH } from '../../web/src/hooks/api/analyticsPath';
import { ORDER_API, withQuery } from '../../web/src/hooks/api/orderKeys';
import { ORDERS_SEARCH } from '../orders/read-ratios';

export interface LoadRoute {
  label: string;
  /** Paths asked in turn (one for a route alone; the soak mixes every page's). */
  path: string;
  /** Whether requests carry a seller's session cookie. */
  signedIn: boolean;
  /** Held to the p99 goal (the trivial and bare routes are compared with each other instead). */
  page: boolean;
  /**
   * A profit aggregate (item 38: p99 ≤ 500 ms rather than 200): figures over a whole range
   * computed for each request, not read from a page of rows or the Dashboard's day rollups.
   */
  aggregate?: boolean;
}

/** The month the Order Matching page opens on (web: currentMonth, in the browser's zone; UTC here). */
const monthOf = (now: Date) => `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * The API calls of the signed-in pages, with the query strings the web app builds (the web's own
 * paths and withQuery; parameters in the order web/src/hooks/api/useOrders.ts passes them,
 * defaults left out), in USD, the default display currency:
 * - Dashboard: metrics for each range it offers (DateRangeSelect: 7, 30 — the default — 90 and
 *   365 days), and its Unmatched Orders card (the first 10 unmatched orders of the range);
 * - Orders: page 1 as it opens (50 rows), and a search (a buyer's surname, as bench:orders);
 * - Order Matching: page 1 of the current month;
 * - Analytics: the page's one call for each of the Dashboard's ranges (ADR 0038; its composition
 *   reads every order of the range, unlike the Dashboard's rollups), held as a profit aggregate.
 * Then a trivial signed-in route (GET /api/auth/user, asked by every page) and a bare one (/livez).
 */
export function loadRoutes(now: Date): LoadRoute[] {
  const page = (label: string, path: string): LoadRoute => ({ label, path, signedIn: true, page: true });
  const currency = 'USD';
  return [
    ...[7, 30, 90, 365].map((days) =>
      page(`Dashboard metrics, ${days} days`, withQuery(ORDER_API.dashboardMetrics, { days, currency })),
    ),
    page(
      'Dashboard: unmatched orders card (30 days)',
      withQuery(ORDER_API.orders, { status: 'unmatched', days: 30, page: 1, pageSize: 10, currency }),
    ),
    page('Orders, page 1', withQuery(ORDER_API.orders, { page: 1, pageSize: 50, currency })),
    page(
      `Orders, search "${ORDERS_SEARCH}"`,
      withQuery(ORDER_API.orders, { search: ORDERS_SEARCH, page: 1, pageSize: 50, currency }),
    ),
    page(
      'Order Matching, page 1 (this month)',
      withQuery(ORDER_API.matchingOrders, { month: monthOf(now), page: 1, currency }),
    ),
    ...[7, 30, 90, 365].map((days) => ({
      ...page(`Analytics, ${days} days`, withQuery(ANALYTICS_PATH, { days, currency })),
      aggregate: true,
    })),
    { label: 'Trivial signed-in: GET /api/auth/user', path: '/api/auth/user', signedIn: true, page: false },
    { label: 'Bare: GET /livez', path: '/livez', signedIn: false, page: false },
  ];
}
