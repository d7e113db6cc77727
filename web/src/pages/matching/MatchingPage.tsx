import { Field, Flex, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuGitCompareArrows } from 'react-icons/lu';
import type { OrderRowView, OrdersStatusFilter } from '@pod/contracts';
import { FIRST_SUPPORTED_YEAR, LAST_SUPPORTED_YEAR, isSupportedMonth } from '@pod/domain';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { OrderListStatus } from '../../components/orders/OrderListStatus';
import { ManualMatchDialog } from '../../components/orders/ManualMatchDialog';
import { MatchRunButton } from '../../components/orders/MatchRunButton';
import { ORDER_MSG } from '../../components/orders/orderText';
import { Pager, useKeepPageInRange } from '../../components/orders/Pager';
import { useMatchRun } from '../../components/orders/useMatchRun';
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
  // What the picker shows; a year being typed passes through months the API refuses (0002-11,
  // 0020-11…): only a supported month is asked for.
  const [monthText, setMonthText] = useState(month);
  const [page, setPage] = useState(1);
  const matchRun = useMatchRun(ORDER_MSG.matchCompletedSuccessfully);
  const [matching, setMatching] = useState<OrderRowView | null>(null);
  const { page: result, error, isLoading, isValidating, reload } = useMatchingPage({ status, month, page, currency });
  useKeepPageInRange(page, result ? result.pageCount : null, setPage);

  return (
    <PageContainer maxW="7xl">
      <PageHeader
        title="Order Matching"
        subtitle="Pair each Etsy order with the Printify order that fulfilled it."
        actions={
          <MatchRunButton
            label="Auto Match Orders"
            icon={<LuGitCompareArrows aria-hidden="true" />}
            running={matchRun.running}
            onStart={() => void matchRun.start()}
            colorPalette="brand"
            alignSelf={{ base: 'stretch', md: 'auto' }}
          />
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
              value={monthText}
              min={`${FIRST_SUPPORTED_YEAR}-01`}
              max={`${LAST_SUPPORTED_YEAR}-12`}
              onChange={(event) => {
                // Clearing the picker goes back to this month rather than asking for no month.
                const next = event.target.value || currentMonth();
                setMonthText(next);
                if (!isSupportedMonth(next)) return;
                setMonth(next);
                setPage(1);
              }}
              bg="bg.panel"
            />
          </Field.Root>
          <Text fontSize="sm" color="fg.muted" pb={{ sm: '2' }} aria-live="polite" data-testid="matching-count">
            {result ? `${result.total.toLocaleString('en-US')} orders found` : '\u00a0'}
          </Text>
        </Flex>
        <OrderListStatus
          result={result}
          error={error}
          isLoading={isLoading}
          onRetry={() => void reload()}
          emptyTestId="matching-empty"
        >
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
