import { Badge, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { MoneyView, OrderDetailsResponse } from '@pod/contracts';
import { formatMoney } from '../../../components/money/format';

type Details = Pick<OrderDetailsResponse, 'order' | 'etsy' | 'profit'>;

/** The seller's words for a receipt still waiting for its Printify order (ADR 0031). */
export const PENDING_TEXT = {
  title: 'Waiting for the Printify order',
  whyPending:
    'No Printify order is matched to this Etsy receipt yet. Printify creates its order when the receipt is sent to production, and PodProfit matches it at the next sync.',
  whyUnmatched:
    'No Printify order was matched to this Etsy receipt within 7 days. If Printify fulfilled it, match it by hand on the Order Matching page.',
  next: 'When its Printify order arrives and is matched, the profit is figured again from the real Printify cost.',
  awaiting:
    'There is no earlier Printify order of the same product (SKU) to estimate its cost from, so its cost and profit are left out of the totals until its Printify order arrives.',
} as const;

/** The sum of the estimated Printify lines of `kind` (a prefix; each already in the display currency); null if any has no rate. */
function estimatedPrintifyCost(profit: Details['profit'], kind = 'printify_'): MoneyView | null {
  const lines = (profit?.costLines ?? []).filter((line) => line.kind.startsWith(kind) && line.estimated);
  const amounts = lines.map((line) => line.amount);
  if (amounts.length === 0 || amounts.some((amount) => amount === null)) return null;
  const known = amounts as MoneyView[];
  return { minor: known.reduce((sum, amount) => sum + amount.minor, 0), currency: known[0].currency };
}

/** "$14.50 (production $10.00 + shipping $4.50)", or the total alone when a part has no rate. */
function estimateText(profit: Details['profit']): string {
  const total = estimatedPrintifyCost(profit);
  if (!total) return 'estimate';
  const production = estimatedPrintifyCost(profit, 'printify_production');
  const shipping = estimatedPrintifyCost(profit, 'printify_shipping');
  if (!production || !shipping) return formatMoney(total);
  return `${formatMoney(total)} (production ${formatMoney(production)} + shipping ${formatMoney(shipping)})`;
}

/**
 * Order Details for a receipt without its Printify order: why it is pending, the Printify cost
 * estimated from the same SKU's recent Printify orders (marked "estimated") or why there is none
 * and what that does to the totals, and what happens next. Nothing for any other order.
 */
export function PendingExplanation({ details }: { details: Details }) {
  const { order, etsy, profit } = details;
  if (!order.etsyReceiptId || order.printifyOrderId) return null;
  if (order.printifyCost !== 'estimated' && order.printifyCost !== 'awaiting') return null;
  const skus = [...new Set((etsy?.lines ?? []).map((line) => line.sku?.trim() ?? '').filter((sku) => sku !== ''))];
  return (
    <Stack
      gap="2"
      borderWidth="1px"
      borderColor="border.muted"
      borderInlineStartWidth="3px"
      borderInlineStartColor="orange.solid"
      borderRadius="lg"
      p="4"
      data-testid="pending-explanation"
    >
      <Heading as="h3" size="sm">
        {PENDING_TEXT.title}
      </Heading>
      <Text fontSize="sm">{order.status === 'unmatched' ? PENDING_TEXT.whyUnmatched : PENDING_TEXT.whyPending}</Text>
      {order.printifyCost === 'estimated' ? (
        <Stack gap="1" fontSize="sm">
          <Flex gap="2" align="center" wrap="wrap">
            <Text>
              Printify cost {estimateText(profit)} from recent Printify orders of the same product
              {skus.length > 0 ? ` (SKU ${skus.join(', ')})` : ''}
            </Text>
            <Badge size="xs" colorPalette="orange" variant="subtle">
              estimated
            </Badge>
          </Flex>
          {profit?.netProfit && (
            <Text color="fg.muted">
              Profit with this estimate: {formatMoney(profit.netProfit)}. It counts in the totals, marked as estimated.
            </Text>
          )}
        </Stack>
      ) : (
        <Text fontSize="sm" color="fg.warning">
          {PENDING_TEXT.awaiting}
        </Text>
      )}
      <Text fontSize="sm" color="fg.muted">
        {PENDING_TEXT.next}
      </Text>
    </Stack>
  );
}
