import { Badge, Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { PrintifyOrderOnReceiptView } from '@pod/contracts';
import { formatMoney, formatOrderDate } from '../../../components/money/format';
import { changeErrorText, ORDER_MSG } from '../../../components/orders/orderText';
import { toaster } from '../../../components/ui/toaster';
import { removePrintifyOrder } from '../../../hooks/api/orderActions';

/** Why a Printify order is on the receipt, as the seller reads it. */
export const PRINTIFY_ROLE_LABEL: Record<PrintifyOrderOnReceiptView['role'], string> = {
  original: 'Original',
  reprint: 'Reprint',
  split: 'Split order',
  manual: 'Added by hand',
};

const ROLE_PALETTE = { original: 'gray', reprint: 'purple', split: 'blue', manual: 'teal' } as const;

function Cost({
  label,
  value,
  strong,
}: {
  label: string;
  value: PrintifyOrderOnReceiptView['totalCost'];
  strong?: boolean;
}) {
  return (
    <Stack gap="0">
      <Text as="dt" fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" fontSize="sm" fontWeight={strong ? 'semibold' : 'normal'}>
        {formatMoney(value)} {value.currency}
      </Text>
    </Stack>
  );
}

/**
 * Every Printify order on the receipt (issue 17), each with why it is there, its own costs as
 * the profit counts them (in its currency; a canceled order costs nothing) and its status. One
 * other than the original can be taken off the receipt, after a confirmation: it becomes its
 * own order again, and the receipt's figures are calculated anew.
 */
export function PrintifyOrdersOnReceipt({
  recordId,
  orders,
  onChanged,
}: {
  recordId: string;
  orders: readonly PrintifyOrderOnReceiptView[];
  onChanged: () => void;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const remove = async (orderId: string) => {
    setRemoving(orderId);
    try {
      await removePrintifyOrder(recordId, orderId);
      toaster.success(`Printify order ${orderId} removed from this order`);
      setConfirming(null);
      onChanged();
    } catch (caught) {
      toaster.error(changeErrorText(caught, 'The Printify order could not be removed. Please try again.'));
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Stack gap="3" borderWidth="1px" borderColor="border.muted" borderRadius="lg" p="4" data-testid="printify-orders">
      <Heading as="h3" size="sm">
        Printify orders on this receipt ({orders.length})
      </Heading>
      {orders.map((order) => (
        <Stack
          key={order.orderId}
          gap="2"
          borderTopWidth="1px"
          borderColor="border.muted"
          pt="3"
          data-testid="printify-order"
        >
          <Flex gap="2" align="center" wrap="wrap">
            <Text fontFamily="mono" fontSize="sm" overflowWrap="anywhere">
              {order.orderId}
            </Text>
            <Badge colorPalette={ROLE_PALETTE[order.role]} variant="subtle" size="sm">
              {PRINTIFY_ROLE_LABEL[order.role]}
            </Badge>
            <Text fontSize="xs" color="fg.muted">
              {order.status} · {formatOrderDate(order.orderDate) ?? '-'}
            </Text>
            {order.role !== 'original' && confirming !== order.orderId && (
              <Button
                size="xs"
                variant="outline"
                colorPalette="red"
                ms="auto"
                onClick={() => setConfirming(order.orderId)}
              >
                Remove
              </Button>
            )}
          </Flex>
          <SimpleGrid as="dl" columns={{ base: 2, sm: 4 }} gap="2">
            <Cost label="Production" value={order.productionCost} />
            <Cost label="Shipping" value={order.shippingCost} />
            <Cost label="Tax" value={order.taxCost} />
            <Cost label="Total" value={order.totalCost} strong />
          </SimpleGrid>
          {order.lines.length > 0 && (
            <Text fontSize="xs" color="fg.muted" data-testid="printify-order-products">
              {order.lines.map((line) => `${line.quantity} × ${line.title ?? ORDER_MSG.unknownProduct}`).join(', ')}
            </Text>
          )}
          {confirming === order.orderId && (
            <Box role="alertdialog" aria-label="Confirm removal" bg="bg.muted" borderRadius="md" p="3">
              <Text fontSize="sm">
                Remove Printify order {order.orderId} from this Etsy order? Its cost no longer counts here; it becomes
                an order of its own.
              </Text>
              <Flex gap="2" mt="2" justify="flex-end">
                <Button size="xs" variant="outline" onClick={() => setConfirming(null)} disabled={removing !== null}>
                  Cancel
                </Button>
                <Button
                  size="xs"
                  colorPalette="red"
                  onClick={() => void remove(order.orderId)}
                  loading={removing === order.orderId}
                  loadingText="Removing..."
                >
                  Remove
                </Button>
              </Flex>
            </Box>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
