import { Stack, Text } from '@chakra-ui/react';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../money/format';
import { ORDER_MSG } from './orderText';

/** An order in the Manual Order Matching dialog: product, customer and date, its ids. */
export function MatchOrderSummary({ order }: { order: OrderRowView }) {
  const ids = [
    order.etsyReceiptId && `Receipt ${order.etsyReceiptId}`,
    order.printifyOrderId && `Printify ${order.printifyOrderId}`,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack gap="0.5" minW="0">
      <Text fontWeight="semibold" truncate>
        {order.productTitle ?? ORDER_MSG.unknownProduct}
      </Text>
      <Text fontSize="sm" color="fg.muted">
        {order.customerName ?? ORDER_MSG.unknownCustomer} · {formatOrderDate(order.orderDate) ?? ORDER_MSG.noDate}
      </Text>
      {ids && (
        <Text fontSize="xs" color="fg.muted" truncate>
          {ids}
        </Text>
      )}
    </Stack>
  );
}
