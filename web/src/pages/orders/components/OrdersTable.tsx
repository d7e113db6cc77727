import { Button, Flex, Table, Text } from '@chakra-ui/react';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { MatchStatusBadge } from '../../../components/orders/OrderBadges';
import { ORDER_MSG } from '../../../components/orders/orderText';

interface OrdersTableProps {
  orders: OrderRowView[];
  onDetails: (order: OrderRowView) => void;
  /** Archived view: each row offers Restore. */
  onRestore?: (order: OrderRowView) => void;
  restoringId: string | null;
}

const dash = <Text as="span" color="fg.muted">-</Text>;

/** The Orders table (spec §2): ids, product with SKU, date, match status, revenue, cost, profit. */
export function OrdersTable({ orders, onDetails, onRestore, restoringId }: OrdersTableProps) {
  return (
    <Table.ScrollArea borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel">
      <Table.Root size="sm" minW="50rem" data-testid="orders-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>Etsy ID</Table.ColumnHeader>
            <Table.ColumnHeader>Printify ID</Table.ColumnHeader>
            <Table.ColumnHeader>Product</Table.ColumnHeader>
            <Table.ColumnHeader>Date</Table.ColumnHeader>
            <Table.ColumnHeader>Match Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Revenue</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Cost</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Profit</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {orders.map((order) => {
            const product = order.productTitle ?? ORDER_MSG.unknownProduct;
            return (
              <Table.Row key={order.id}>
                <Table.Cell fontFamily="mono" fontSize="xs">{order.etsyReceiptId ?? dash}</Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs">
                  {order.printifyOrderId ? <Text truncate maxW="7rem" title={order.printifyOrderId}>{order.printifyOrderId}</Text> : dash}
                </Table.Cell>
                {/* Width 100% with max-width 0: the product takes what the other columns leave and truncates, so Actions stays in view. */}
                <Table.Cell w="full" maxW="0">
                  <Text truncate title={product}>
                    {product}
                  </Text>
                  {order.productSku && (
                    <Text fontSize="xs" color="fg.muted" truncate>
                      SKU: {order.productSku}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatOrderDate(order.orderDate) ?? dash}</Table.Cell>
                <Table.Cell>
                  <MatchStatusBadge order={order} />
                </Table.Cell>
                {order.figures === 'rate_unavailable' ? (
                  // One "Rate unavailable" across the three figures rather than three of them.
                  <Table.Cell colSpan={3} textAlign="end">
                    <MoneyText value={null} figures={order.figures} />
                  </Table.Cell>
                ) : (
                  <>
                    <Table.Cell textAlign="end">
                      <MoneyText value={order.revenue} figures={order.figures} />
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <MoneyText value={order.cost} figures={order.figures} />
                      {order.hasEstimatedFees && order.figures === 'ok' && (
                        <Text fontSize="xs" color="fg.muted">
                          est. fees
                        </Text>
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <MoneyText value={order.profit} figures={order.figures} signed fontWeight="medium" />
                    </Table.Cell>
                  </>
                )}
                <Table.Cell>
                  <Flex gap="2" justify="flex-end">
                    <Button size="xs" variant="outline" onClick={() => onDetails(order)} aria-label={`View Details of ${product}`}>
                      View Details
                    </Button>
                    {onRestore && (
                      <Button size="xs" variant="subtle" colorPalette="brand" onClick={() => onRestore(order)} loading={restoringId === order.id} aria-label={`Restore ${product}`}>
                        Restore
                      </Button>
                    )}
                  </Flex>
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
