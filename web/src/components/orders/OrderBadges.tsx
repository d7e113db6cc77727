import { Badge } from '@chakra-ui/react';
import type { NotNeededReason, OrderRowView, OrderSource } from '@pod/contracts';

/** How a pair was made, as Order Details' "Match Method" reads it. */
export const METHOD_LABEL = { exact: 'Automatic (exact)', fuzzy: 'Automatic (fuzzy)', manual: 'Manual' } as const;

/**
 * Match Status (spec §2, Orders; Part 2 §6 wins): the badge says how the pair was made, as
 * Order Details does: the exact rule "Auto", the scored rule "Auto (fuzzy)", a seller's pair
 * "Manual" (issue 18: fuzzy pairs read "Manual" before, beside "Automatic (fuzzy)" in their
 * details); unmatched "Unmatched"; a pending pair "Pending"; an order that needs no match says
 * why (issue 17).
 */
export function matchStatusLabel(
  order: Pick<OrderRowView, 'status' | 'matchMethod'>,
): 'Auto' | 'Auto (fuzzy)' | 'Manual' | 'Pending' | 'Unmatched' | 'No match needed' {
  if (order.status === 'matched') {
    if (order.matchMethod === 'exact') return 'Auto';
    return order.matchMethod === 'fuzzy' ? 'Auto (fuzzy)' : 'Manual';
  }
  if (order.status === 'not_needed') return 'No match needed';
  return order.status === 'pending' ? 'Pending' : 'Unmatched';
}

/** Why an order needs no match, as the seller reads it. */
export const NOT_NEEDED_LABEL: Record<NotNeededReason, string> = {
  digital: 'Digital — no fulfilment',
  printify_sample: 'Printify sample',
  printify_manual: 'Printify-only order',
  canceled_empty: 'Canceled — no cost',
};

const MATCH_PALETTE = {
  Auto: 'green',
  'Auto (fuzzy)': 'teal',
  Manual: 'blue',
  Pending: 'orange',
  Unmatched: 'gray',
  'No match needed': 'cyan',
} as const;

export function MatchStatusBadge({
  order,
}: {
  order: Pick<OrderRowView, 'status' | 'matchMethod'> & Partial<Pick<OrderRowView, 'notNeededReason'>>;
}) {
  const label = matchStatusLabel(order);
  if (order.status === 'not_needed' && order.notNeededReason)
    return (
      // The longest badge ("Digital — no fulfilment"): it wraps rather than widen the Orders table
      // past 1024 px (a profit sort puts digital sales, all margin, on the first page).
      <Badge colorPalette="cyan" variant="subtle" size="sm" whiteSpace="normal" h="auto" py="0.5" maxW="7.5rem">
        {NOT_NEEDED_LABEL[order.notNeededReason]}
      </Badge>
    );
  return (
    <Badge colorPalette={MATCH_PALETTE[label]} variant="subtle" size="sm" whiteSpace="nowrap">
      {label}
    </Badge>
  );
}

const STATUS_LABEL = {
  matched: 'Matched',
  pending: 'Pending',
  unmatched: 'Unmatched',
  not_needed: 'No match needed',
} as const;
const STATUS_PALETTE = { matched: 'green', pending: 'orange', unmatched: 'gray', not_needed: 'cyan' } as const;

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
