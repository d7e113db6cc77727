import { Badge } from '@chakra-ui/react';
import type { OrderRowView, OrderSource } from '@pod/contracts';

/**
 * Match Status (spec §2, Orders): matched by the exact rule reads "Auto", any other match
 * "Manual", unmatched "Unmatched"; a pending pair reads "Pending" (Part 2 lets the status show).
 */
export function matchStatusLabel(
  order: Pick<OrderRowView, 'status' | 'matchMethod'>,
): 'Auto' | 'Manual' | 'Pending' | 'Unmatched' {
  if (order.status === 'matched') return order.matchMethod === 'exact' ? 'Auto' : 'Manual';
  return order.status === 'pending' ? 'Pending' : 'Unmatched';
}

const MATCH_PALETTE = { Auto: 'green', Manual: 'blue', Pending: 'orange', Unmatched: 'gray' } as const;

export function MatchStatusBadge({ order }: { order: Pick<OrderRowView, 'status' | 'matchMethod'> }) {
  const label = matchStatusLabel(order);
  return (
    <Badge colorPalette={MATCH_PALETTE[label]} variant="subtle" size="sm">
      {label}
    </Badge>
  );
}

const STATUS_LABEL = { matched: 'Matched', pending: 'Pending', unmatched: 'Unmatched' } as const;
const STATUS_PALETTE = { matched: 'green', pending: 'orange', unmatched: 'gray' } as const;

/** The order's status as the Order Matching and Dashboard tables name it. */
export function StatusBadge({ status }: { status: OrderRowView['status'] }) {
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} variant="subtle" size="sm">
      {STATUS_LABEL[status]}
    </Badge>
  );
}

export const SOURCE_LABEL: Record<OrderSource, string> = {
  etsy_printify: 'Etsy + Printify',
  etsy: 'Etsy Only',
  printify: 'Printify Only',
};
const SOURCE_PALETTE = { etsy_printify: 'purple', etsy: 'orange', printify: 'teal' } as const;

export function SourceBadge({ source }: { source: OrderSource }) {
  return (
    <Badge colorPalette={SOURCE_PALETTE[source]} variant="outline" size="sm" whiteSpace="nowrap">
      {SOURCE_LABEL[source]}
    </Badge>
  );
}
