import { ChartRoot, ChartTooltip, useChart } from '@chakra-ui/charts';
import { Bar, BarChart, CartesianGrid, Cell, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMinorUnits } from '@pod/domain';
import { moneyTick } from '../analyticsData';
import { Swatch } from './ChartCard';

export interface BarRow {
  label: string;
  /** Minor units of the display currency. */
  value: number;
}

// About what fits on one line in the axis's 150 px at the charts' 12 px type.
const shortLabel = (label: string) => (label.length > 21 ? `${label.slice(0, 20)}…` : label);

/** Horizontal bars of money (products, cost kinds): one row each, negative ones in red. */
export function MoneyBars({
  rows,
  currency,
  name,
  color = 'green.solid',
}: {
  rows: BarRow[];
  currency: string;
  name: string;
  /** The colour of positive bars (costs: orange; profit: green). */
  color?: string;
}) {
  const chart = useChart<BarRow>({
    data: rows,
    series: [{ name: 'value', label: name, color, icon: <Swatch color={color} /> }],
  });
  const money = (minor: number) => formatMinorUnits(minor, currency);
  return (
    <ChartRoot h={`${Math.max(rows.length, 2) * 2.25 + 3}rem`} chart={chart}>
      <BarChart
        responsive
        data={chart.data}
        layout="vertical"
        accessibilityLayer={false}
        margin={{ left: 4, right: 16 }}
      >
        <CartesianGrid stroke={chart.color('border')} horizontal={false} />
        <XAxis
          type="number"
          tickLine={false}
          axisLine={false}
          stroke={chart.color('fg.muted')}
          tickFormatter={moneyTick(currency)}
        />
        <YAxis
          type="category"
          dataKey={chart.key('label')}
          tickLine={false}
          axisLine={false}
          stroke={chart.color('fg.muted')}
          tickFormatter={shortLabel}
          width={150}
        />
        <Tooltip
          cursor={false}
          animationDuration={100}
          content={<ChartTooltip formatter={(value: number) => money(value)} />}
        />
        <Bar dataKey={chart.key('value')} name={name} isAnimationActive={false} radius={4}>
          {rows.map((row) => (
            <Cell key={row.label} fill={chart.color(row.value < 0 ? 'red.solid' : color)} />
          ))}
        </Bar>
      </BarChart>
    </ChartRoot>
  );
}
