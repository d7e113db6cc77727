import { ChartRoot, ChartTooltip, useChart } from '@chakra-ui/charts';
import { Box, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Cell, Pie, PieChart, Tooltip } from 'recharts';
import type { AnalyticsProductProfit, AnalyticsResponse } from '@pod/contracts';
import { formatMinorUnits } from '@pod/domain';
import { formatPercent } from '../../../components/money/format';
import { moneyText, statusShareRows, type ShareRow } from '../analyticsData';
import { MoneyBars } from './BarsChart';
import { ChartCard } from './ChartCard';

const productName = (product: AnalyticsProductProfit) => product.product ?? 'Without a product title';

function ProductsCard({ analytics, which }: { analytics: AnalyticsResponse; which: 'best' | 'worst' }) {
  const products = which === 'best' ? analytics.bestProducts : analytics.worstProducts;
  const title = which === 'best' ? 'Most profitable products' : 'Least profitable products';
  const listed = products.map(productName).slice(0, 3).join(', ');
  return (
    <ChartCard
      testId={`chart-products-${which}`}
      title={title}
      description={`Net profit by product title, ${which === 'best' ? 'best' : 'worst'} ${products.length || 10} of the range.`}
      summary={`Bar chart of net profit by product, ${which} first: ${listed}${products.length > 3 ? ' and more' : ''}. The data table lists each.`}
      empty={products.length === 0 ? 'No orders with figures in this range.' : null}
      table={{
        caption: `${title}: orders, revenue and net profit`,
        columns: ['Product', 'Orders', 'Revenue', 'Net profit'],
        rows: products.map((product) => [
          productName(product),
          String(product.orders),
          moneyText(product.revenue),
          moneyText(product.netProfit),
        ]),
      }}
    >
      <MoneyBars
        rows={products.map((product) => ({ label: productName(product), value: product.netProfit.minor }))}
        currency={analytics.currency}
        name="Net profit"
      />
    </ChartCard>
  );
}

/** Best and worst ten products by net profit, side by side from lg. */
export function ProductCharts({ analytics }: { analytics: AnalyticsResponse }) {
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
      <ProductsCard analytics={analytics} which="best" />
      <ProductsCard analytics={analytics} which="worst" />
    </SimpleGrid>
  );
}

const GROUP_LABELS = { printify: 'Printify', etsy_fees: 'Etsy fees', shop_costs: 'Shop costs' } as const;

/** Where the money goes: Printify production and shipping, each Etsy fee kind, then the shop costs. */
export function CostsChart({ analytics }: { analytics: AnalyticsResponse }) {
  const lines = analytics.costs;
  const total = lines.reduce((sum, line) => sum + line.cost.minor, 0);
  const biggest = [...lines].sort((a, b) => b.cost.minor - a.cost.minor)[0];
  return (
    <ChartCard
      testId="chart-costs"
      title="Where the money goes"
      description="Order costs by kind (Printify, Etsy fees), then shop costs no order carries."
      summary={
        biggest
          ? `Bar chart of costs by kind, ${formatMinorUnits(total, analytics.currency)} in all; the largest is ${biggest.label} at ${moneyText(biggest.cost)}. The data table lists each.`
          : 'No costs in this range.'
      }
      empty={lines.length === 0 ? 'No costs in this range.' : null}
      table={{
        caption: 'Costs by kind',
        columns: ['Cost', 'Group', 'Amount'],
        rows: lines.map((line) => [line.label, GROUP_LABELS[line.group], moneyText(line.cost)]),
      }}
    >
      <MoneyBars
        rows={lines.map((line) => ({ label: line.label, value: line.cost.minor }))}
        currency={analytics.currency}
        name="Cost"
        color="orange.solid"
      />
    </ChartCard>
  );
}

const SHARE_COLORS: Record<ShareRow['key'], string> = {
  matched: 'green.solid',
  pending: 'yellow.solid',
  unmatched: 'red.solid',
};

/** Matched, pending and unmatched orders of the range: a donut and its legend with counts. */
export function StatusShareChart({ analytics }: { analytics: AnalyticsResponse }) {
  const rows = statusShareRows(analytics.statusShare);
  const chart = useChart<ShareRow>({ data: rows });
  const total = rows.reduce((sum, row) => sum + row.orders, 0);
  return (
    <ChartCard
      testId="chart-status-share"
      title="Matched, pending and unmatched"
      description="Active orders of the range by matching status."
      summary={`Donut chart: ${rows.map((row) => `${row.label.toLowerCase()} ${row.orders} (${formatPercent(row.percent, 1)})`).join(', ')}.`}
      empty={total === 0 ? 'No orders in this range.' : null}
      table={{
        caption: 'Orders by matching status',
        columns: ['Status', 'Orders', 'Share'],
        rows: rows.map((row) => [row.label, String(row.orders), formatPercent(row.percent, 1)]),
      }}
    >
      <Flex direction={{ base: 'column', sm: 'row' }} align="center" gap="6">
        <ChartRoot boxSize="11rem" flexShrink={0} chart={chart}>
          <PieChart responsive accessibilityLayer={false}>
            <Tooltip
              cursor={false}
              animationDuration={100}
              content={<ChartTooltip hideLabel hideIndicator nameKey="label" />}
            />
            <Pie
              isAnimationActive={false}
              data={chart.data}
              dataKey={chart.key('orders')}
              nameKey="label"
              innerRadius="60%"
              outerRadius="100%"
              strokeWidth={2}
            >
              {rows.map((row) => (
                <Cell key={row.key} fill={chart.color(SHARE_COLORS[row.key])} stroke={chart.color('bg.panel')} />
              ))}
            </Pie>
          </PieChart>
        </ChartRoot>
        <Stack gap="2" as="ul" listStyleType="none" aria-hidden="true">
          {rows.map((row) => (
            <Flex as="li" key={row.key} align="center" gap="2" fontSize="sm">
              <Box boxSize="3" borderRadius="full" bg={SHARE_COLORS[row.key]} />
              <Text>
                {row.label}: <b>{row.orders}</b> ({formatPercent(row.percent, 1)})
              </Text>
            </Flex>
          ))}
        </Stack>
      </Flex>
    </ChartCard>
  );
}
