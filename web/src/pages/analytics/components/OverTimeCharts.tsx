import { ChartLegend, ChartRoot, ChartTooltip, useChart } from '@chakra-ui/charts';
import { CartesianGrid, Legend, Line, LineChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { AnalyticsResponse } from '@pod/contracts';
import { formatMinorUnits } from '@pod/domain';
import { formatPercent } from '../../../components/money/format';
import { moneyTick, overTimeRows, type OverTimeRow } from '../analyticsData';
import { ChartCard, Swatch } from './ChartCard';

const BUCKET_WORD = { day: 'day', week: 'week', month: 'month' } as const;

/** Revenue, costs and net profit per bucket, in the display currency. */
export function MoneyOverTimeChart({ analytics }: { analytics: AnalyticsResponse }) {
  const rows = overTimeRows(analytics);
  const chart = useChart<OverTimeRow>({
    data: rows,
    series: [
      { name: 'revenue', label: 'Revenue', color: 'blue.solid', icon: <Swatch color="blue.solid" /> },
      { name: 'costs', label: 'Costs', color: 'orange.solid', icon: <Swatch color="orange.solid" /> },
      { name: 'profit', label: 'Net profit', color: 'green.solid', icon: <Swatch color="green.solid" /> },
    ],
  });
  const currency = analytics.currency;
  const money = (minor: number) => formatMinorUnits(minor, currency);
  const tick = moneyTick(currency);
  return (
    <ChartCard
      testId="chart-over-time"
      title="Revenue, costs and profit"
      description={`By ${BUCKET_WORD[analytics.bucket]}, orders’ figures in ${currency}.`}
      summary={`Line chart by ${BUCKET_WORD[analytics.bucket]}: revenue ${money(analytics.current.revenue.minor)}, costs ${money(analytics.current.costs.minor)}, net profit ${money(analytics.current.netProfit.minor)} over the range. The data table has each ${BUCKET_WORD[analytics.bucket]}.`}
      table={{
        caption: `Revenue, costs and net profit by ${BUCKET_WORD[analytics.bucket]}`,
        columns: [
          analytics.bucket === 'day' ? 'Day' : analytics.bucket === 'week' ? 'Week' : 'Month',
          'Revenue',
          'Costs',
          'Net profit',
        ],
        rows: rows.map((row) => [row.label, money(row.revenue), money(row.costs), money(row.profit)]),
      }}
    >
      <ChartRoot h={{ base: '15rem', md: '18rem' }} chart={chart}>
        <LineChart responsive data={chart.data} accessibilityLayer={false} margin={{ left: 8, right: 8 }}>
          <CartesianGrid stroke={chart.color('border')} vertical={false} />
          <XAxis
            dataKey={chart.key('label')}
            tickLine={false}
            axisLine={false}
            stroke={chart.color('fg.muted')}
            minTickGap={16}
          />
          <YAxis tickLine={false} axisLine={false} stroke={chart.color('fg.muted')} tickFormatter={tick} width={72} />
          <Tooltip
            cursor={false}
            animationDuration={100}
            content={<ChartTooltip formatter={(value: number) => money(value)} />}
          />
          {chart.series.map((item) => (
            <Line
              key={item.name}
              type="monotone"
              isAnimationActive={false}
              dataKey={chart.key(item.name)}
              stroke={chart.color(item.color)}
              strokeWidth={2}
              dot={rows.length <= 13}
            />
          ))}
          <Legend content={<ChartLegend />} />
        </LineChart>
      </ChartRoot>
    </ChartCard>
  );
}

/** Net profit ÷ revenue per bucket (no point where there is no revenue). */
export function MarginOverTimeChart({ analytics }: { analytics: AnalyticsResponse }) {
  const rows = overTimeRows(analytics);
  const chart = useChart<OverTimeRow>({
    data: rows,
    series: [{ name: 'margin', label: 'Margin', color: 'purple.solid', icon: <Swatch color="purple.solid" /> }],
  });
  const percent = (value: number | null) => (value === null ? '-' : formatPercent(value, 1));
  return (
    <ChartCard
      testId="chart-margin"
      title="Margin over time"
      description={`Net profit ÷ revenue by ${BUCKET_WORD[analytics.bucket]}; none without revenue.`}
      summary={`Line chart of the margin by ${BUCKET_WORD[analytics.bucket]}; ${percent(analytics.current.margin)} over the range. The data table has each ${BUCKET_WORD[analytics.bucket]}.`}
      table={{
        caption: `Margin by ${BUCKET_WORD[analytics.bucket]}`,
        columns: [analytics.bucket === 'day' ? 'Day' : analytics.bucket === 'week' ? 'Week' : 'Month', 'Margin'],
        rows: rows.map((row) => [row.label, percent(row.margin)]),
      }}
    >
      <ChartRoot h={{ base: '12rem', md: '14rem' }} chart={chart}>
        <LineChart responsive data={chart.data} accessibilityLayer={false} margin={{ left: 8, right: 8 }}>
          <CartesianGrid stroke={chart.color('border')} vertical={false} />
          <XAxis
            dataKey={chart.key('label')}
            tickLine={false}
            axisLine={false}
            stroke={chart.color('fg.muted')}
            minTickGap={16}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            stroke={chart.color('fg.muted')}
            tickFormatter={(value: number) => `${value}%`}
            width={48}
          />
          <Tooltip
            cursor={false}
            animationDuration={100}
            content={<ChartTooltip formatter={(value: number) => percent(value)} />}
          />
          <Line
            type="monotone"
            isAnimationActive={false}
            dataKey={chart.key('margin')}
            name="Margin"
            stroke={chart.color('purple.solid')}
            strokeWidth={2}
            dot={rows.length <= 13}
            connectNulls
          />
        </LineChart>
      </ChartRoot>
    </ChartCard>
  );
}
