import { Card, SimpleGrid, Skeleton, Text } from '@chakra-ui/react';
import type { AnalyticsResponse } from '@pod/contracts';
import { formatMoney, formatPercent } from '../../../components/money/format';
import { comparisonText, marginComparisonText } from '../analyticsData';

interface Headline {
  label: string;
  value: string;
  comparison: string;
  testId: string;
  color?: string;
}

function headlinesOf({ current, previous, days }: AnalyticsResponse): Headline[] {
  const hadOrders = previous.orders > 0;
  const compare = (key: 'revenue' | 'costs' | 'netProfit') =>
    comparisonText(current[key].minor, previous[key].minor, days, hadOrders);
  return [
    { label: 'Total Revenue', value: formatMoney(current.revenue), comparison: compare('revenue'), testId: 'revenue' },
    { label: 'Total Costs', value: formatMoney(current.costs), comparison: compare('costs'), testId: 'costs' },
    {
      label: 'Net Profit',
      value: formatMoney(current.netProfit),
      comparison: compare('netProfit'),
      testId: 'net-profit',
      color: current.netProfit.minor < 0 ? 'fg.error' : 'fg.success',
    },
    {
      label: 'Profit Margin',
      value: current.margin === null ? '-' : formatPercent(current.margin, 1),
      comparison: marginComparisonText(current.margin, previous.margin, days),
      testId: 'margin',
    },
  ];
}

const GRID = { base: 2, xl: 4 } as const;

export function HeadlineCardsSkeleton() {
  return (
    <SimpleGrid columns={GRID} gap="4" aria-busy="true" data-testid="analytics-skeletons">
      {[0, 1, 2, 3].map((index) => (
        <Skeleton key={index} h="7rem" borderRadius="xl" />
      ))}
    </SimpleGrid>
  );
}

/** The Dashboard's four totals for the range, each against the same number of days before it. */
export function HeadlineCards({ analytics }: { analytics: AnalyticsResponse }) {
  return (
    <SimpleGrid columns={GRID} gap="4" data-testid="analytics-headline">
      {headlinesOf(analytics).map((headline) => (
        <Card.Root key={headline.label} borderRadius="xl" boxShadow="xs" data-testid={`headline-${headline.testId}`}>
          <Card.Body gap="1.5" py={{ base: '4', sm: '5' }} px={{ base: '4', sm: '6' }}>
            <Text fontSize={{ base: 'xs', sm: 'sm' }} fontWeight="medium" color="fg.muted">
              {headline.label}
            </Text>
            <Text
              fontSize={{ base: 'lg', sm: '2xl' }}
              fontWeight="semibold"
              letterSpacing="-0.01em"
              color={headline.color}
              fontVariantNumeric="tabular-nums"
              data-testid="headline-value"
            >
              {headline.value}
            </Text>
            <Text fontSize="xs" color="fg.muted" data-testid="headline-comparison">
              {headline.comparison}
            </Text>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
