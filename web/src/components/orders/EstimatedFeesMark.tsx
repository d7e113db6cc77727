import { Box, Text, type TextProps } from '@chakra-ui/react';
import type { EstimatedFeeView, OrderRowView } from '@pod/contracts';
import { Tooltip } from '../ui/tooltip';

export const ESTIMATED_FEES_MARK = 'est. fees';

/**
 * Which of the order's costs are estimated and why, grouped by why: "Transaction fee, Listing
 * fee: Etsy's ledger has no entries for this order yet; …".
 */
export function estimatedFeesText(fees: readonly EstimatedFeeView[]): string[] {
  const byWhy = new Map<string, string[]>();
  for (const fee of fees) byWhy.set(fee.why, [...(byWhy.get(fee.why) ?? []), fee.label]);
  return [...byWhy].map(([why, labels]) => `${[...new Set(labels)].join(', ')}: ${why}.`);
}

/**
 * The small "est. fees" under an order's cost, only where a cost line really is an estimate
 * (issue 18): a word, focusable, whose tooltip says which fees are estimated and why, so an
 * estimate waiting for Etsy's ledger reads apart from one Etsy never itemises.
 */
export function EstimatedFeesMark({
  order,
  ...textProps
}: { order: Pick<OrderRowView, 'hasEstimatedFees' | 'estimatedFees'> } & Omit<TextProps, 'children'>) {
  if (!order.hasEstimatedFees) return null;
  const lines = estimatedFeesText(order.estimatedFees);
  return (
    <Tooltip
      content={
        <Box>
          <Text fontWeight="semibold">Estimated from Etsy’s fee schedule</Text>
          {lines.map((line) => (
            <Text key={line}>{line}</Text>
          ))}
        </Box>
      }
    >
      <Text
        as="span"
        display="block"
        fontSize="xs"
        color="fg.muted"
        tabIndex={0}
        data-testid="estimated-fees-mark"
        {...textProps}
      >
        {ESTIMATED_FEES_MARK}
      </Text>
    </Tooltip>
  );
}
