import { Button, Field, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuGitCompareArrows } from 'react-icons/lu';
import type { OrderRowView, OrdersStatusFilter } from '@pod/contracts';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { OrderListStatus } from '../../components/orders/OrderListStatus';
import { ManualMatchDialog } from '../../components/orders/ManualMatchDialog';
import { ORDER_MSG } from '../../components/orders/orderText';
import { Pager } from '../../components/orders/Pager';
import { toaster } from '../../components/ui/toaster';
import { matchAllOrders } from '../../hooks/api/orderActions';
import { useMatchingPage } from '../../hooks/api/useOrders';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { usePageTitle } from '../../hooks/usePageTitle';
import { MatchingTable } from './components/MatchingTable';

const STATUS_OPTIONS: ReadonlyArray<{ value: OrdersStatusFilter; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'matched', label: 'Matched' },
  { value: 'unmatched', label: 'Unmatched' },
  { value: 'pending', label: 'Pending' },
];

/** YYYY-MM of today, the month picker's default (spec §2). */
export function currentMonth(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/** "Showing 16-30 of 42 orders" (spec §2, Order Matching). */
function shownRange(page: number, pageSize: number, shown: number, total: number): string {
  if (total === 0) return 'Showing 0 of 0 orders';
  const first = (page - 1) * pageSize + 1;
  return `Showing ${first}-${first + shown - 1} of ${total} orders`;
}

/** Order Matching (spec §2, §4; Part 2 §5, §6): auto matching, and matching by hand month by month. */
export function MatchingPage() {
  usePageTitle('Order Matching');
  const currency = useDisplayCurrency();
  const [status, setStatus] = useState<OrdersStatusFilter>('all');
  const [month, setMonth] = useState(currentMonth);
  const [page, setPage] = useState(1);
  const [autoMatching, setAutoMatching] = useState(false);
  const [matching, setMatching] = useState<OrderRowView | null>(null);
  const { page: result, error, isLoading, isValidating, reload } = useMatchingPage({ status, month, page, currency });

  const autoMatch = async () => {
    setAutoMatching(true);
    try {
      await matchAllOrders();
      toaster.success(ORDER_MSG.matchCompletedSuccessfully);
    } catch {
      toaster.error(ORDER_MSG.matchFailed);
    } finally {
      setAutoMatching(false);
    }
  };

  return (
    <PageContainer maxW="7xl">
      <PageHeader
        title="Order Matching"
        subtitle="Pair each Etsy order with the Printify order that fulfilled it."
        actions={
          <Button colorPalette="brand" onClick={() => void autoMatch()} loading={autoMatching} loadingText="Matching..." alignSelf={{ base: 'stretch', md: 'auto' }}>
            <LuGitCompareArrows aria-hidden="true" /> Auto Match Orders
          </Button>
        }
      />
      <Stack gap="4">
        <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'flex-end' }} wrap="wrap">
          <Field.Root w={{ base: 'full', sm: '12rem' }}>
            <Field.Label>Status</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field
                name="matching-status"
                value={status}
                onChange={(event) => {
                  setStatus(event.target.value as OrdersStatusFilter);
                  setPage(1);
                }}
                bg="bg.panel"
              >
                {STATUS_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root w={{ base: 'full', sm: '12rem' }}>
            <Field.Label>Month</Field.Label>
            <Input
              type="month"
              name="matching-month"
              value={month}
              onChange={(event) => {
                // Clearing the picker goes back to this month rather than asking for no month.
                setMonth(event.target.value || currentMonth());
                setPage(1);
              }}
              bg="bg.panel"
            />
          </Field.Root>
          <Text fontSize="sm" color="fg.muted" pb={{ sm: '2' }} aria-live="polite" data-testid="matching-count">
            {result ? `${result.total.toLocaleString('en-US')} orders found` : '\u00a0'}
          </Text>
        </Flex>
        <OrderListStatus result={result} error={error} isLoading={isLoading} onRetry={() => void reload()} emptyTestId="matching-empty">
          {(page) => (
            <>
              <MatchingTable orders={page.orders} onMatch={setMatching} />
              <Pager
                label="Order Matching pages"
                page={page.page}
                pageCount={page.pageCount}
                summary={shownRange(page.page, page.pageSize, page.orders.length, page.total)}
                onPage={setPage}
                busy={isValidating}
              />
            </>
          )}
        </OrderListStatus>
      </Stack>
      <ManualMatchDialog order={matching} onClose={() => setMatching(null)} />
    </PageContainer>
  );
}
