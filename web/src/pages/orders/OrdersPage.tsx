import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { OrderRowView, OrdersArchiveView, OrdersSourceTab, OrdersStatusFilter } from '@pod/contracts';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { OrderListStatus } from '../../components/orders/OrderListStatus';
import { Pager, useKeepPageInRange } from '../../components/orders/Pager';
import { useExportCsv, type OrdersExportFilters } from '../../hooks/api/useExportCsv';
import { useOrdersPage } from '../../hooks/api/useOrders';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { usePageTitle } from '../../hooks/usePageTitle';
import { OrderDetailsDialog } from './components/OrderDetailsDialog';
import {
  DATE_OPTIONS,
  LAST_YEAR_OPTION,
  OrdersFilters,
  STATUS_OPTIONS,
  type OrdersDays,
} from './components/OrdersFilters';
import { OrdersCardList } from './components/OrdersCardList';
import { OrdersSortSelect } from './components/OrdersSortSelect';
import { OrdersTable } from './components/OrdersTable';
import { SourceTabs } from './components/SourceTabs';
import { DEFAULT_ORDERS_SORT, sortFromQuery, toggledSort, withSort, type OrdersSort } from './orderSort';

const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;

/**
 * `?status=unmatched&days=30` (the dashboard's "View All … Unmatched Orders") opens the list
 * filtered as the dashboard counted; anything else in the query is ignored.
 */
function initialFilters(search: string): { status: OrdersStatusFilter; days: OrdersDays } {
  const query = new URLSearchParams(search);
  const status = STATUS_OPTIONS.find((option) => option.value === query.get('status'))?.value ?? 'all';
  const days = [...DATE_OPTIONS, LAST_YEAR_OPTION].find(
    (option) => option.value !== undefined && String(option.value) === query.get('days'),
  )?.value;
  return { status, days };
}

/** Orders (spec §2; Part 2 §3, §5, §10): every order, filtered, counted and paged by the server. */
export function OrdersPage() {
  usePageTitle('Orders');
  const { search: query } = useLocation();
  const currency = useDisplayCurrency();
  const [opened] = useState(() => initialFilters(query));
  // The sort is kept in the URL (`?sort=profit&dir=asc`), so a reload or a shared link keeps it;
  // the page reads it once and then holds it itself: the router applies a URL change in a
  // transition, which left the select and the headers showing the old sort for a moment.
  // Written through navigate, not useSearchParams: that hook's code would join the first-load
  // vendor chunk every public visit downloads (the landing budget, ≤ 200 kB).
  const navigate = useNavigate();
  const [sort, setSortState] = useState(() => sortFromQuery(new URLSearchParams(query)));
  const setSort = (next: OrdersSort) => {
    setSortState(next);
    const search = withSort(new URLSearchParams(query), next).toString();
    void navigate({ search: search ? `?${search}` : '' }, { replace: true });
    setPage(1);
  };
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<OrdersStatusFilter>(opened.status);
  const [days, setDays] = useState<OrdersDays>(opened.days);
  const [source, setSource] = useState<OrdersSourceTab>('all');
  const [view, setView] = useState<OrdersArchiveView>('active');
  const [page, setPage] = useState(1);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const settledSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  // Every filter change starts again at page 1 (the search once it settles).
  const [pagedSearch, setPagedSearch] = useState(settledSearch);
  if (pagedSearch !== settledSearch) {
    setPagedSearch(settledSearch);
    setPage(1);
  }
  const filter =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const filters: OrdersExportFilters = {
    search: settledSearch,
    status,
    days,
    source,
    view,
    currency,
    sort: sort === DEFAULT_ORDERS_SORT ? undefined : sort,
  };
  const {
    page: result,
    error,
    isLoading,
    isValidating,
    reload,
  } = useOrdersPage({ ...filters, page, pageSize: PAGE_SIZE });
  const { exportCsv, exporting } = useExportCsv();

  const rowProps = {
    orders: result?.orders ?? [],
    onDetails: (order: OrderRowView) => setDetailsId(order.id),
  };
  const pageCount = result ? Math.max(1, Math.ceil(result.filteredTotal / result.pageSize)) : 1;
  useKeepPageInRange(page, result ? pageCount : null, setPage);
  const body = (
    <OrderListStatus
      result={result}
      error={error}
      isLoading={isLoading}
      onRetry={() => void reload()}
      emptyTestId="orders-empty"
    >
      {(page) => (
        <>
          {/* A table from md up; cards on a phone, where nine columns would hide the money off to the side. */}
          <Box hideBelow="md">
            <OrdersTable {...rowProps} sort={sort} onSort={(key) => setSort(toggledSort(sort, key))} />
          </Box>
          <Box hideFrom="md">
            <OrdersCardList {...rowProps} />
          </Box>
          <Pager label="Orders pages" page={page.page} pageCount={pageCount} onPage={setPage} busy={isValidating} />
        </>
      )}
    </OrderListStatus>
  );

  return (
    <PageContainer maxW="7xl">
      <PageHeader
        title="Orders"
        subtitle={
          view === 'archived'
            ? 'Archived orders: restore one to count it again.'
            : 'Every Etsy and Printify order, with its real profit.'
        }
        actions={
          // The file holds what the list shows: these filters, this sort, this currency, every page.
          <Button
            variant="outline"
            size="sm"
            alignSelf={{ base: 'flex-start', md: 'auto' }}
            loading={exporting}
            loadingText="Exporting…"
            onClick={() => void exportCsv(filters)}
            data-testid="orders-export"
          >
            Export CSV
          </Button>
        }
      />
      <Stack gap="4">
        <OrdersFilters
          search={search}
          onSearch={setSearch}
          status={status}
          onStatus={filter(setStatus)}
          days={days}
          onDays={filter(setDays)}
          offerLastYear={opened.days === 365}
          view={view}
          onView={filter(setView)}
        />
        <Flex
          gap="3"
          justify="space-between"
          align={{ base: 'stretch', sm: 'center' }}
          direction={{ base: 'column', sm: 'row' }}
        >
          {/* From the same answer as the rows and the tabs: dimmed with them while new filters load, then all change together. */}
          <Text
            fontSize="sm"
            color="fg.muted"
            aria-live="polite"
            data-testid="orders-count"
            opacity={isLoading && result ? 0.5 : undefined}
          >
            {result
              ? `Showing ${result.filteredTotal.toLocaleString('en-US')} of ${result.total.toLocaleString('en-US')} orders`
              : '\u00a0'}
          </Text>
          <OrdersSortSelect sort={sort} onSort={setSort} />
        </Flex>
        <SourceTabs value={source} onChange={filter(setSource)} counts={result?.tabCounts}>
          {body}
        </SourceTabs>
      </Stack>
      <OrderDetailsDialog orderId={detailsId} onClose={() => setDetailsId(null)} />
    </PageContainer>
  );
}
