import { Card, Flex, Heading, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { ReportWindowDays } from '@pod/domain';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_REPORT_RANGE_DAYS, ReportRangeSelect } from '../../components/ReportRangeSelect';
import { LoadError } from '../../components/orders/LoadError';
import { ButtonLink } from '../../components/ui/button-link';
import { useAnalytics } from '../../hooks/api/useAnalytics';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { usePageTitle } from '../../hooks/usePageTitle';
import { CostsChart, ProductCharts, StatusShareChart } from './components/BreakdownCharts';
import { HeadlineCards, HeadlineCardsSkeleton } from './components/HeadlineCards';
import { MarginOverTimeChart, MoneyOverTimeChart } from './components/OverTimeCharts';
import { moneyText } from './analyticsData';

/** No order synced yet: where to go instead of empty charts (as the Dashboard says it). */
function NoOrdersYet() {
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" data-testid="analytics-no-orders">
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          No orders yet
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Charts of your revenue, costs and profit show here once your orders arrive. Connect your Etsy shop and
          Printify account, then press Sync All on the Dashboard.
        </Text>
        <Flex gap="3" wrap="wrap">
          <ButtonLink to="/connections" colorPalette="brand">
            Go to Connections
          </ButtonLink>
          <ButtonLink to="/" variant="outline">
            Go to the Dashboard
          </ButtonLink>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

function ChartsSkeleton() {
  return (
    <Stack gap="6" aria-busy="true">
      <Skeleton h="20rem" borderRadius="xl" />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Skeleton h="16rem" borderRadius="xl" />
        <Skeleton h="16rem" borderRadius="xl" />
      </SimpleGrid>
    </Stack>
  );
}

/**
 * /analytics (issue 19, product spec Part 2 point 2): the Dashboard's range and display currency,
 * its totals against the period before, and charts of how they are made up. Recharts and the
 * chart components live in this page's chunk only (the landing budget).
 */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  const [days, setDays] = useState<ReportWindowDays>(DEFAULT_REPORT_RANGE_DAYS);
  const currency = useDisplayCurrency();
  const { analytics, error, reload } = useAnalytics(days, currency);
  return (
    <PageContainer>
      <PageHeader
        title="Analytics"
        subtitle="Profit, revenue, costs and margin over time, and where the money goes"
        actions={<ReportRangeSelect name="analytics-days" days={days} onChange={setDays} />}
      />
      {error && !analytics ? (
        <LoadError title="Your analytics could not be loaded" error={error} onRetry={() => void reload()} />
      ) : !analytics ? (
        <Stack gap="6">
          <HeadlineCardsSkeleton />
          <ChartsSkeleton />
        </Stack>
      ) : !analytics.hasOrders ? (
        <NoOrdersYet />
      ) : (
        <Stack gap="6">
          <Stack gap="2">
            <HeadlineCards analytics={analytics} />
            <Text fontSize="sm" color="fg.muted" data-testid="profit-after-shop-costs">
              Profit after shop costs: <b>{moneyText(analytics.current.profitAfterShopCosts)}</b> (previous {days} days:{' '}
              {moneyText(analytics.previous.profitAfterShopCosts)}). Same figures as the Dashboard for this range.
            </Text>
          </Stack>
          <MoneyOverTimeChart analytics={analytics} />
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
            <MarginOverTimeChart analytics={analytics} />
            <StatusShareChart analytics={analytics} />
          </SimpleGrid>
          <CostsChart analytics={analytics} />
          <ProductCharts analytics={analytics} />
        </Stack>
      )}
    </PageContainer>
  );
}
