import { Text } from '@chakra-ui/react';
import type { NotNeededReason, OrderRowView } from '@pod/contracts';

/** Why the order has no other side, for an order that needs none. */
const NO_OTHER_SIDE: Record<NotNeededReason, string> = {
  digital: 'Every item is a digital download: there is no Printify order to match.',
  printify_sample: 'A Printify sample for you, not a sale: there is no Etsy order to match.',
  printify_manual: 'A Printify order placed by hand, naming no Etsy order: its cost counts on its own.',
  canceled_empty: 'Canceled before it cost anything: there is no Etsy order to match.',
};

/**
 * The side a one-sided order lacks, in one line (issue 18) rather than an empty half of the
 * dialog: why none is needed, or what to do (Match, in the footer).
 */
export function MissingSide({ order }: { order: OrderRowView }) {
  const lacks = order.etsyReceiptId ? 'Printify' : 'Etsy';
  const text =
    order.status === 'not_needed' && order.notNeededReason
      ? NO_OTHER_SIDE[order.notNeededReason]
      : order.archived
        ? `No ${lacks} order is matched to this archived order. Restore it to match it.`
        : `No ${lacks} order is matched yet, so its profit is not known. Use Match to pick one.`;
  return (
    <Text fontSize="sm" color="fg.muted" bg="bg.subtle" borderRadius="md" px="3" py="2" data-testid="missing-side">
      {text}
    </Text>
  );
}
