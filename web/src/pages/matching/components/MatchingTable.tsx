import { Box, Button, Flex, Stack, Table, Text } from '@chakra-ui/react';
import { LuGitCompareArrows } from 'react-icons/lu';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { SourceBadge, StatusBadge } from '../../../components/orders/OrderBadges';
import { ORDER_MSG } from '../../../components/orders/orderText';

function Amount({ order }: { order: OrderRowView }) {
  // One "Rate unavailable" or "-" says it for the whole row.
  if (order.figures !== 'ok') return <MoneyText value={null} figures={order.figures} />;
  const figures: Array<[string, OrderRowView['revenue'], boolean]> =
    order.status === 'matched'
      ? [
          ['Revenue', order.revenue, false],
          ['Cost', order.cost, false],
          ['Profit', order.profit, true],
        ]
      : [order.revenue ? ['Revenue', order.revenue, false] : ['Cost', order.cost, false]];
  return (
    <Stack gap="0" fontSize="sm">
      {figures.map(([label, value, signed]) => (
        <Text as="span" key={label} color={label === 'Cost' && order.status === 'matched' ? 'fg.muted' : undefined}>
          {label} <MoneyText value={value} signed={signed} fontWeight={signed ? 'medium' : undefined} />
        </Text>
      ))}
    </Stack>
  );
}

/** The Order Matching table (spec §2): details, customer, amount, status, source, and Match on every unmatched row. */
function MatchingRowsTable({ orders, onMatch }: { orders: OrderRowView[]; onMatch: (order: OrderRowView) => void }) {
  return (
    <Table.ScrollArea borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel">
      <Table.Root size="sm" minW="52rem" data-testid="matching-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>Order Details</Table.ColumnHeader>
            <Table.ColumnHeader>Customer</Table.ColumnHeader>
            <Table.ColumnHeader>Amount</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Source</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {orders.map((order) => {
            const product = order.productTitle ?? ORDER_MSG.unknownProduct;
            return (
              <Table.Row key={order.id}>
                <Table.Cell maxW="20rem">
                  <Text fontWeight="medium" truncate title={product}>
                    {product}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {formatOrderDate(order.orderDate) ?? ORDER_MSG.noDate}
                  </Text>
                  <Text fontSize="xs" color="fg.muted" fontFamily="mono" truncate>
                    {order.etsyReceiptId ? `Receipt ${order.etsyReceiptId}` : `Printify ${order.printifyOrderId ?? '-'}`}
                  </Text>
                </Table.Cell>
                <Table.Cell>{order.customerName ?? ORDER_MSG.unknownCustomer}</Table.Cell>
                <Table.Cell>
                  <Amount order={order} />
                </Table.Cell>
                <Table.Cell>
                  <StatusBadge status={order.status} />
                </Table.Cell>
                <Table.Cell>
                  <SourceBadge source={order.source} />
                </Table.Cell>
                <Table.Cell textAlign="end">
                  {order.status !== 'matched' && (
                    <Button size="xs" colorPalette="brand" variant="subtle" onClick={() => onMatch(order)} aria-label={`Match ${product}`}>
                      <LuGitCompareArrows aria-hidden="true" /> Match
                    </Button>
                  )}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** On a phone: one card per order, with its Match button in view. */
function MatchingCards({ orders, onMatch }: { orders: OrderRowView[]; onMatch: (order: OrderRowView) => void }) {
  return (
    <Stack as="ul" listStyleType="none" gap="3" data-testid="matching-cards">
      {orders.map((order) => {
        const product = order.productTitle ?? ORDER_MSG.unknownProduct;
        return (
          <Box as="li" key={order.id} borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel" p="4">
            <Flex justify="space-between" gap="3" align="flex-start">
              <Stack gap="0.5" minW="0">
                <Text fontWeight="semibold" truncate>
                  {product}
                </Text>
                <Text fontSize="xs" color="fg.muted">
                  {order.customerName ?? ORDER_MSG.unknownCustomer} · {formatOrderDate(order.orderDate) ?? ORDER_MSG.noDate}
                </Text>
                <Text fontSize="xs" color="fg.muted" truncate>
                  {order.etsyReceiptId ? `Receipt ${order.etsyReceiptId}` : `Printify ${order.printifyOrderId ?? '-'}`}
                </Text>
              </Stack>
              <StatusBadge status={order.status} />
            </Flex>
            <Flex justify="space-between" align="flex-end" gap="3" mt="3">
              <Stack gap="2">
                <Amount order={order} />
                <Box>
                  <SourceBadge source={order.source} />
                </Box>
              </Stack>
              {order.status !== 'matched' && (
                <Button size="sm" colorPalette="brand" onClick={() => onMatch(order)} aria-label={`Match ${product}`}>
                  <LuGitCompareArrows aria-hidden="true" /> Match
                </Button>
              )}
            </Flex>
          </Box>
        );
      })}
    </Stack>
  );
}

/** A table from md up, cards on a phone (the Match button stays in view). */
export function MatchingTable(props: { orders: OrderRowView[]; onMatch: (order: OrderRowView) => void }) {
  return (
    <>
      <Box hideBelow="md">
        <MatchingRowsTable {...props} />
      </Box>
      <Box hideFrom="md">
        <MatchingCards {...props} />
      </Box>
    </>
  );
}
