import { Text } from '@chakra-ui/react';
import type { OrderRowView } from '@pod/contracts';
import { Tooltip } from '../ui/tooltip';

/** The lists' and the dashboard's words for a receipt still waiting for its Printify order (ADR 0031). */
export const PRINTIFY_COST_TEXT = {
  estimated: 'est. Printify cost',
  estimatedWhy:
    'This receipt has no Printify order yet: its Printify cost is estimated from recent Printify orders of the same product, and replaced by the real cost when its order arrives.',
  awaiting: 'awaiting Printify cost',
  awaitingWhy:
    'This receipt has no Printify order yet and no earlier Printify order of the same product to estimate from: its cost and profit are left out of the totals until its Printify order arrives.',
} as const;

/**
 * Under an order's cost: "est. Printify cost" when the cost holds an estimate, "awaiting
 * Printify cost" when it is not known at all. A word, focusable, its tooltip saying why.
 */
export function PrintifyCostMark({ order }: { order: Pick<OrderRowView, 'printifyCost' | 'figures'> }) {
  if (order.figures === 'rate_unavailable' || order.figures === 'not_computed') return null;
  if (order.printifyCost !== 'estimated' && order.printifyCost !== 'awaiting') return null;
  const estimated = order.printifyCost === 'estimated';
  return (
    <Tooltip content={estimated ? PRINTIFY_COST_TEXT.estimatedWhy : PRINTIFY_COST_TEXT.awaitingWhy}>
      <Text
        as="span"
        display="block"
        fontSize="xs"
        color={estimated ? 'fg.muted' : 'fg.warning'}
        // Wraps to two short lines rather than widen the cost column (every column fits at 1024 px).
        whiteSpace="normal"
        lineHeight="short"
        tabIndex={0}
        data-testid="printify-cost-mark"
      >
        {estimated ? PRINTIFY_COST_TEXT.estimated : PRINTIFY_COST_TEXT.awaiting}
      </Text>
    </Tooltip>
  );
}
