import { Card, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { DashboardMetricsResponse, MoneyView, OtherCostsView } from '@pod/contracts';
import { formatMoney } from '../../../components/money/format';

/** One figure's card: its label, value, where it comes from, and (for costs) the kinds it adds up. */
function FigureCard({
  label,
  value,
  source,
  color,
  kinds,
  note,
  testId,
}: {
  label: string;
  value: MoneyView;
  source: string;
  color?: string;
  kinds?: OtherCostsView['byKind'];
  note?: string;
  testId: string;
}) {
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" data-testid={testId}>
      <Card.Body gap="2" py={{ base: '4', sm: '5' }} px={{ base: '4', sm: '6' }}>
        <Text fontSize={{ base: 'xs', sm: 'sm' }} fontWeight="medium" color="fg.muted">
          {label}
        </Text>
        <Text
          fontSize={{ base: 'lg', sm: '2xl' }}
          fontWeight="semibold"
          letterSpacing="-0.01em"
          color={color}
          fontVariantNumeric="tabular-nums"
        >
          {formatMoney(value)}
        </Text>
        {kinds && kinds.length > 0 && (
          <Stack as="ul" gap="1" listStyleType="none" aria-label={`${label} by kind`}>
            {kinds.map((kind) => (
              <Flex as="li" key={kind.kind} justify="space-between" gap="3" fontSize="sm">
                <Text color="fg.muted">{kind.label}</Text>
                <Text fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
                  {formatMoney(kind.cost)}
                </Text>
              </Flex>
            ))}
          </Stack>
        )}
        {note && (
          <Text fontSize="xs" color="fg.warning">
            {note}
          </Text>
        )}
        <Text fontSize="xs" color="fg.subtle" data-testid="figure-source">
          {source}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

/** What the total leaves out (no rate yet) and what in it may still move (provisional rates), said plainly. */
const rateNote = (costs: OtherCostsView, currency: string) =>
  [
    costs.withoutRate > 0
      ? `${costs.withoutRate} ${costs.withoutRate === 1 ? 'entry has' : 'entries have'} no exchange rate to ${currency} yet and ${costs.withoutRate === 1 ? 'is' : 'are'} not in this total.`
      : null,
    costs.provisional > 0
      ? `${costs.provisional} ${costs.provisional === 1 ? 'entry is' : 'entries are'} converted at a provisional rate (the latest published) until the ECB publishes ${costs.provisional === 1 ? 'its' : 'their'} day’s.`
      : null,
  ]
    .filter((line) => line !== null)
    .join(' ') || undefined;

/**
 * Below the order totals (ADR 0027): the Etsy and Printify costs no order carries and the profit
 * after them, each saying where it comes from (net profit from orders says so on its own card),
 * so the last figure matches what the shop really kept.
 */
export function ShopCostCards({ metrics }: { metrics: DashboardMetricsResponse }) {
  const profit = metrics.profitAfterShopCosts;
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" data-testid="shop-cost-cards">
      <FigureCard
        testId="other-etsy-costs"
        label="Other Etsy costs"
        value={metrics.otherEtsyCosts.total}
        kinds={metrics.otherEtsyCosts.byKind}
        note={rateNote(metrics.otherEtsyCosts, metrics.currency)}
        source={metrics.otherEtsyCosts.source}
      />
      <FigureCard
        testId="other-printify-costs"
        label="Other Printify costs"
        value={metrics.otherPrintifyCosts.total}
        kinds={metrics.otherPrintifyCosts.byKind}
        source={metrics.otherPrintifyCosts.source}
      />
      <FigureCard
        testId="profit-after-shop-costs"
        label="Profit after shop costs"
        value={profit}
        source={metrics.profitAfterShopCostsSource}
        color={profit.minor < 0 ? 'fg.error' : 'fg.success'}
      />
    </SimpleGrid>
  );
}
