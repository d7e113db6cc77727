import { Box, Button, Flex, Stack, Table, Text } from '@chakra-ui/react';
import { LuGitCompareArrows } from 'react-icons/lu';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { SourceBadge, StatusBadge } from '../../../components/orders/OrderBadges';
import { OrderCard } from '../../../components/orders/OrderCard';
import { ProvisionalMark } from '../../../components/orders/ProvisionalMark';
import { ORDER_MSG } from '../../../components/orders/orderText';
import { FIT_COLUMNS_BELOW_XL } from '../../../components/orders/tableFit';
import { TruncatedText } from '../../../components/orders/TruncatedText';

function Amount({ order }: { order: OrderRowView }) {
  // One "Rate unavailable" or "-" says it for the whole row.
  if (order.figures !== 'ok' && order.figures !== 'provisional')
    return <MoneyText value={null} figures={order.figures} />;
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
        <Text
          as="span"
          key={label}
          whiteSpace="nowrap"
          color={label === 'Cost' && order.status === 'matched' ? 'fg.muted' : undefined}
        >
          {label} <MoneyText value={value} signed={signed} fontWeight={signed ? 'medium' : undefined} />
        </Text>
      ))}
      {order.figures === 'provisional' && <ProvisionalMark />}
    </Stack>
  );
}

/** The Order Matching table (spec §2): details, customer, amount, status, source, and Match on every unmatched row. */
function MatchingRowsTable({ orders, onMatch }: { orders: OrderRowView[]; onMatch: (order: OrderRowView) => void }) {
  return (
    <Table.ScrollArea borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel">
      {/* From lg (1024 px) the six columns fit beside the sidebar; between md and lg the frame scrolls. */}
      <Table.Root size="sm" minW={{ base: '52rem', lg: '0' }} css={FIT_COLUMNS_BELOW_XL} data-testid="matching-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader data-grow="">Order Details</Table.ColumnHeader>
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
                {/* Width 100%: the details take what the other columns leave; a long title wraps to two lines.
                    At lg the other five can leave ~170 px (an Unmatched badge, a four-digit amount), so 8rem. */}
                <Table.Cell
                  w="full"
                  maxW="0"
                  minW={{ base: '10rem', lg: '8rem', xl: '10rem' }}
                  whiteSpace="normal"
                  data-grow=""
                >
                  <Text fontWeight="medium" lineClamp={2} wordBreak="break-word" title={product}>
                    {product}
                  </Text>
                  <Text fontSize="xs" color="fg.muted">
                    {formatOrderDate(order.orderDate) ?? ORDER_MSG.noDate}
                  </Text>
                  {/* Width 0 with min-width 100%: the id adds nothing to the column's minimum (a 24-character
                      Printify id would set it) and still takes the cell's width, truncated, in full in a tooltip. */}
                  <TruncatedText
                    fontSize="xs"
                    color="fg.muted"
                    fontFamily="mono"
                    w="0"
                    minW="full"
                    text={
                      order.etsyReceiptId
                        ? `Receipt ${order.etsyReceiptId}`
                        : `Printify ${order.printifyOrderId ?? '-'}`
                    }
                  />
                </Table.Cell>
                <Table.Cell>
                  {/* A long name truncates (in full in a tooltip) rather than pushing Actions out of view. */}
                  <TruncatedText
                    maxW={{ base: '14rem', lg: '6.5rem', xl: '16rem' }}
                    text={order.customerName ?? ORDER_MSG.unknownCustomer}
                  />
                </Table.Cell>
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
                    <Button
                      size="xs"
                      colorPalette="brand"
                      variant="subtle"
                      onClick={() => onMatch(order)}
                      aria-label={`Match ${product}`}
                    >
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
          <OrderCard
            key={order.id}
            product={product}
            badge={<StatusBadge status={order.status} />}
            details={
              <>
                <Text fontSize="xs" color="fg.muted">
                  {order.customerName ?? ORDER_MSG.unknownCustomer} ·{' '}
                  {formatOrderDate(order.orderDate) ?? ORDER_MSG.noDate}
                </Text>
                <Text fontSize="xs" color="fg.muted" truncate>
                  {order.etsyReceiptId ? `Receipt ${order.etsyReceiptId}` : `Printify ${order.printifyOrderId ?? '-'}`}
                </Text>
              </>
            }
          >
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
          </OrderCard>
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
