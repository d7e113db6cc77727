import { Stack, Text } from '@chakra-ui/react';
import type { DashboardMetricsResponse } from '@pod/contracts';

type Counts = Pick<
  DashboardMetricsResponse,
  | 'ordersProvisional'
  | 'ordersWithoutRate'
  | 'ordersNotComputed'
  | 'ordersAwaitingPrintifyCost'
  | 'ordersEstimatedPrintifyCost'
  | 'currency'
>;

const orders = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'order' : 'orders'}`;

/** What the totals above leave out or hold at provisional rates, one sentence per non-zero count. */
export function totalsNoticeLines({
  ordersProvisional,
  ordersWithoutRate,
  ordersNotComputed,
  ordersAwaitingPrintifyCost,
  ordersEstimatedPrintifyCost,
  currency,
}: Counts): string[] {
  const lines: string[] = [];
  if (ordersProvisional > 0) {
    lines.push(
      `Totals include ${orders(ordersProvisional)} at ${ordersProvisional === 1 ? 'a provisional exchange rate' : 'provisional exchange rates'}.`,
    );
  }
  if (ordersWithoutRate > 0) {
    const one = ordersWithoutRate === 1;
    lines.push(
      `${orders(ordersWithoutRate)} ${one ? 'has' : 'have'} no exchange rate to ${currency} for ${one ? 'its' : 'their'} date and ${one ? 'is' : 'are'} not in the totals.`,
    );
  }
  if (ordersNotComputed > 0) lines.push(`Profit for ${orders(ordersNotComputed)} is still being calculated.`);
  // ADR 0031: a receipt whose Printify order has not arrived is estimated from the same product's
  // recent Printify orders, or, with none, left out rather than counted at revenue − fees.
  if (ordersAwaitingPrintifyCost > 0) {
    const one = ordersAwaitingPrintifyCost === 1;
    lines.push(
      `${orders(ordersAwaitingPrintifyCost)} awaiting Printify costs ${one ? 'is' : 'are'} not in the totals until ${one ? 'its Printify order arrives' : 'their Printify orders arrive'}.`,
    );
  }
  if (ordersEstimatedPrintifyCost > 0) {
    const one = ordersEstimatedPrintifyCost === 1;
    lines.push(
      `Totals include ${orders(ordersEstimatedPrintifyCost)} at an estimated Printify cost (from recent orders of the same product) until ${one ? 'its Printify order arrives' : 'their Printify orders arrive'}.`,
    );
  }
  return lines;
}

/**
 * Under the metric cards: the orders the totals hold at provisional rates or leave out, so a
 * total never silently misses an order. Nothing when every order is in at its final rate; the
 * "still being calculated" line goes by itself as the figures poll (useDashboardMetrics).
 */
export function TotalsNotice({ metrics }: { metrics: Counts }) {
  const lines = totalsNoticeLines(metrics);
  if (lines.length === 0) return null;
  // No icon: a lazy page's react-icons import lands in every visitor's first load (ADR 0012).
  return (
    <Stack
      role="status"
      gap="1"
      borderWidth="1px"
      borderColor="border.muted"
      borderInlineStartWidth="3px"
      borderInlineStartColor="brand.solid"
      borderRadius="lg"
      bg="bg.subtle"
      px="4"
      py="3"
      data-testid="totals-notice"
    >
      {lines.map((line) => (
        <Text key={line} fontSize="sm" color="fg.muted">
          {line}
        </Text>
      ))}
    </Stack>
  );
}
