import { useEffect, useMemo, useRef } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type {
  DashboardMetricsResponse,
  MatchCandidatesResponse,
  MatchingPageResponse,
  OrderDetailsResponse,
  OrdersArchiveView,
  OrdersPageResponse,
  OrdersSortDirection,
  OrdersSortKey,
  OrdersSourceTab,
  OrdersStatusFilter,
} from '@pod/contracts';
import type { DisplayCurrencyCode, ReportWindowDays } from '@pod/domain';
import { FIGURES_POLL_IDLE, FIGURES_POLL_MS, nextFiguresPoll, type FiguresPollState } from './figuresPolling';
import { resetByPrefix } from './mutateByPrefix';
import { ORDER_API as API, withQuery } from './orderKeys';
import { useFiguresSettling } from './useSyncStatus';

// The order screens' queries (libs/contracts/src/api/orders.ts). Every key carries the display
// currency, so changing it asks again; paged lists keep the previous page on screen while the
// next one loads instead of flashing an empty table. While the figures settle (a sync, match or
// profit run of the seller is on: useFiguresSettling) each polls; once settled, none does.

export type DashboardDays = ReportWindowDays;

export function useDashboardMetrics(days: DashboardDays, currency: DisplayCurrencyCode) {
  const key = withQuery(API.dashboardMetrics, { days, currency });
  const { cache } = useSWRConfig();
  const settling = useFiguresSettling();
  const waiting = ((cache.get(key)?.data as DashboardMetricsResponse | undefined)?.ordersNotComputed ?? 0) > 0;
  // While orders wait for their profit, poll, backing off when answers show no progress
  // (figuresPolling.ts). SWR asks the function after each answer and stops for good once it
  // answers 0; a new function per idle/waiting phase (and per key) re-arms it when orders
  // start waiting again (after a sync or a match).
  const refreshInterval = useMemo(() => {
    let progress: FiguresPollState = FIGURES_POLL_IDLE;
    return (latest?: DashboardMetricsResponse) => {
      // A sync, match or profit run is on: the figures change as it goes (Etsy's fees after the receipts).
      if (settling) return FIGURES_POLL_MS;
      const next = nextFiguresPoll(progress, latest?.ordersNotComputed ?? 0);
      progress = next.state;
      return next.intervalMs;
    };
    // `key` and `waiting` are not read: a new function (with a fresh back-off) per key and phase is the point.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, waiting, settling]);
  const { data, error, isLoading, mutate } = useSWR<DashboardMetricsResponse>(key, {
    // After a change empties the cache (mutateByPrefix), the figures stay on screen until the new ones arrive.
    keepPreviousData: true,
    refreshInterval,
  });
  // Once no order waits any more, the order lists on screen (the Unmatched Orders preview) still
  // show "-" for them: ask them again, and empty the others' cached answers.
  const waitedBefore = useRef(false);
  const waitingNow = (data?.ordersNotComputed ?? 0) > 0;
  useEffect(() => {
    const waited = waitedBefore.current;
    waitedBefore.current = waitingNow;
    if (waited && !waitingNow) void resetByPrefix(API.orders, API.matchingOrders);
  }, [waitingNow]);
  return { metrics: data, error: error as Error | undefined, isLoading, reload: mutate };
}

export interface OrdersQuery {
  search: string;
  status: OrdersStatusFilter;
  /** 7, 30 or 90 (the Orders date filter), 365 (the Dashboard's "Last year"); undefined is all time. */
  days: ReportWindowDays | undefined;
  source: OrdersSourceTab;
  view: OrdersArchiveView;
  page: number;
  pageSize?: number;
  currency: DisplayCurrencyCode;
  /** Left out: newest first. */
  sort?: { key: OrdersSortKey; dir: OrdersSortDirection };
}

export function ordersKey(query: OrdersQuery): string {
  return withQuery(API.orders, {
    search: query.search.trim() || undefined,
    status: query.status === 'all' ? undefined : query.status,
    days: query.days,
    source: query.source === 'all' ? undefined : query.source,
    view: query.view === 'active' ? undefined : query.view,
    sort: query.sort?.key,
    dir: query.sort?.dir,
    page: query.page,
    pageSize: query.pageSize,
    currency: query.currency,
  });
}

export function useOrdersPage(query: OrdersQuery) {
  const { data, error, isLoading, isValidating, mutate } = useSWR<OrdersPageResponse>(ordersKey(query), {
    keepPreviousData: true,
    refreshInterval: useFiguresSettling() ? FIGURES_POLL_MS : 0,
  });
  return { page: data, error: error as Error | undefined, isLoading, isValidating, reload: mutate };
}

export interface MatchingQuery {
  status: OrdersStatusFilter;
  /** YYYY-MM */
  month: string;
  page: number;
  currency: DisplayCurrencyCode;
}

export function useMatchingPage(query: MatchingQuery) {
  const key = withQuery(API.matchingOrders, {
    status: query.status === 'all' ? undefined : query.status,
    month: query.month || undefined,
    page: query.page,
    currency: query.currency,
  });
  const { data, error, isLoading, isValidating, mutate } = useSWR<MatchingPageResponse>(key, {
    keepPreviousData: true,
    refreshInterval: useFiguresSettling() ? FIGURES_POLL_MS : 0,
  });
  return { page: data, error: error as Error | undefined, isLoading, isValidating, reload: mutate };
}

/** GET /api/orders/:id — only while the details dialog shows that order (null id asks nothing). */
export function useOrderDetails(id: string | null, currency: DisplayCurrencyCode) {
  const key = id ? withQuery(API.order(id), { currency }) : null;
  const { data, error, isLoading, mutate } = useSWR<OrderDetailsResponse>(key);
  // The order's last answer stays on screen while it is asked again: a settling sync or an
  // action empties every order key (resetByPrefix), which blanked an open dialog to "Loading
  // order..." and lost its scroll. Only for the same order and currency (keepPreviousData
  // would show the previous order's details under another order's id).
  const last = useRef<{ key: string; details: OrderDetailsResponse } | null>(null);
  if (key !== null && data !== undefined) last.current = { key, details: data };
  const details = data ?? (last.current?.key === key ? last.current.details : undefined);
  return {
    details,
    error: error as Error | undefined,
    isLoading: isLoading && details === undefined,
    reload: mutate,
  };
}

/** GET /api/orders/:id/candidates — the Manual Order Matching dialog's list, best first. */
export function useMatchCandidates(
  id: string | null,
  currency: DisplayCurrencyCode,
  { search, page }: { search: string; page: number },
) {
  const { data, error, isLoading, isValidating, mutate } = useSWR<MatchCandidatesResponse>(
    id ? withQuery(API.orderCandidates(id), { currency, search: search.trim() || undefined, page }) : null,
    { keepPreviousData: true },
  );
  return { candidates: data, error: error as Error | undefined, isLoading, isValidating, reload: mutate };
}
