import { Card, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { DashboardMetricsResponse } from '@pod/contracts';
import { formatMoney, formatPercent } from '../../../components/money/format';
import { TotalsNotice } from './TotalsNotice';

interface Metric {
  label: string;
  value: string;
  color?: string;
  /** Where the figure comes from (ADR 0027), under it. */
  source?: string;
  testId?: string;
}

function metricsOf(metrics: DashboardMetricsResponse): Metric[] {
  const profit = metrics.netProfit.minor;
  return [
    { label: 'Total Revenue', value: formatMoney(metrics.totalRevenue) },
    { label: 'Total Costs', value: formatMoney(metrics.totalCosts) },
    {
      label: 'Net Profit',
      value: formatMoney(metrics.netProfit),
      color: profit < 0 ? 'fg.error' : 'fg.success',
      source: metrics.netProfitSource,
      testId: 'net-profit-from-orders',
    },
    { label: 'Profit Margin', value: metrics.profitMargin === null ? '-' : formatPercent(metrics.profitMargin, 1) },
  ];
}

// Four across from xl: at 1024 px beside the sidebar a card was 130 px and "$10,856.89" broke over two lines.
const GRID = { base: 2, xl: 4 } as const;

/** The four skeletons the spec asks for while the metrics load (§2, Dashboard). */
export function MetricCardsSkeleton() {
  return (
    <SimpleGrid columns={GRID} gap="4" aria-busy="true" data-testid="metric-skeletons">
      {[0, 1, 2, 3].map((index) => (
        <Skeleton key={index} h="6.5rem" borderRadius="xl" />
      ))}
    </SimpleGrid>
  );
}

/** Total Revenue, Total Costs, Net Profit and Profit Margin over the chosen range, in the display currency; below, what they hold at provisional rates or leave out. */
export function MetricCards({ metrics }: { metrics: DashboardMetricsResponse }) {
  return (
    <Stack gap="3">
      <SimpleGrid columns={GRID} gap="4" data-testid="metric-cards">
        {metricsOf(metrics).map((metric) => (
          <Card.Root key={metric.label} borderRadius="xl" boxShadow="xs" data-testid={metric.testId}>
            <Card.Body gap="2" py={{ base: '4', sm: '5' }} px={{ base: '4', sm: '6' }}>
              <Text fontSize={{ base: 'xs', sm: 'sm' }} fontWeight="medium" color="fg.muted">
                {metric.label}
              </Text>
              <Text
                fontSize={{ base: 'lg', sm: '2xl' }}
                fontWeight="semibold"
                letterSpacing="-0.01em"
                color={metric.color}
                fontVariantNumeric="tabular-nums"
              >
                {metric.value}
              </Text>
              {metric.source && (
                <Text fontSize="xs" color="fg.subtle" data-testid="figure-source">
                  {metric.source}
                </Text>
              )}
            </Card.Body>
          </Card.Root>
        ))}
      </SimpleGrid>
      <TotalsNotice metrics={metrics} />
    </Stack>
  );
}
