import { Box, Button, Flex, Table, Text } from '@chakra-ui/react';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { EstimatedFeesMark } from '../../../components/orders/EstimatedFeesMark';
import { MatchStatusBadge } from '../../../components/orders/OrderBadges';
import { ProvisionalMark } from '../../../components/orders/ProvisionalMark';
import { extraPrintifyText, ORDER_MSG } from '../../../components/orders/orderText';
import { FIT_COLUMNS_BELOW_XL } from '../../../components/orders/tableFit';

interface OrdersTableProps {
  orders: OrderRowView[];
  onDetails: (order: OrderRowView) => void;
  /** Archived view: each row offers Restore. */
  onRestore?: (order: OrderRowView) => void;
  restoringId: string | null;
}

const dash = (
  <Text as="span" color="fg.muted">
    -
  </Text>
);

/** The Orders table (spec §2): ids, product with SKU, date, match status, revenue, cost, profit. */
export function OrdersTable({ orders, onDetails, onRestore, restoringId }: OrdersTableProps) {
  return (
    <Table.ScrollArea borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel">
      {/* Between md and lg the frame scrolls; from lg every column fits (below xl the Printify ID sits under the Etsy ID, the date under the product). */}
      <Table.Root size="sm" minW={{ base: '50rem', lg: '0' }} css={FIT_COLUMNS_BELOW_XL} data-testid="orders-table">
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>
              Etsy ID
              <Box as="span" display={{ base: 'block', xl: 'none' }} fontWeight="normal" color="fg.muted">
                Printify ID
              </Box>
            </Table.ColumnHeader>
            <Table.ColumnHeader hideBelow="xl">Printify ID</Table.ColumnHeader>
            <Table.ColumnHeader data-grow="">
              Product
              <Box as="span" display={{ base: 'block', xl: 'none' }} fontWeight="normal" color="fg.muted">
                Date
              </Box>
            </Table.ColumnHeader>
            <Table.ColumnHeader hideBelow="xl">Date</Table.ColumnHeader>
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
                <Table.Cell fontFamily="mono" fontSize="xs">
                  {order.etsyReceiptId ?? dash}
                  <Box display={{ base: 'block', xl: 'none' }} color="fg.muted">
                    {order.printifyOrderId ? (
                      <Text truncate maxW="5.5rem" title={order.printifyOrderId}>
                        {order.printifyOrderId}
                      </Text>
                    ) : (
                      dash
                    )}
                    <ExtraPrintify order={order} />
                  </Box>
                </Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs" hideBelow="xl">
                  {order.printifyOrderId ? (
                    <Text truncate maxW="7rem" title={order.printifyOrderId}>
                      {order.printifyOrderId}
                    </Text>
                  ) : (
                    dash
                  )}
                  <ExtraPrintify order={order} />
                </Table.Cell>
                {/*
                  Width 100% with max-width 0: the product takes what the other columns leave (never under
                  8rem; 7rem at lg, where five-digit amounts in all three figures leave it ~120 px), on up to
                  two lines, and its SKU truncates, so Actions stays in view.
                */}
                <Table.Cell
                  w="full"
                  maxW="0"
                  minW={{ base: '8rem', lg: '7rem', xl: '8rem' }}
                  whiteSpace="normal"
                  data-grow=""
                >
                  <Text lineClamp={2} wordBreak="break-word" title={product}>
                    {product}
                  </Text>
                  <Text hideFrom="xl" fontSize="xs" color="fg.muted" truncate>
                    {[formatOrderDate(order.orderDate) ?? '-', order.productSku && `SKU: ${order.productSku}`]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                  {order.productSku && (
                    <Text hideBelow="xl" fontSize="xs" color="fg.muted" truncate>
                      SKU: {order.productSku}
                    </Text>
                  )}
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap" hideBelow="xl">
                  {formatOrderDate(order.orderDate) ?? dash}
                </Table.Cell>
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
                      {(order.figures === 'ok' || order.figures === 'provisional') && (
                        <EstimatedFeesMark order={order} />
                      )}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <MoneyText value={order.profit} figures={order.figures} signed fontWeight="medium" />
                      {order.figures === 'provisional' && <ProvisionalMark />}
                    </Table.Cell>
                  </>
                )}
                <Table.Cell>
                  <Flex gap="2" justify="flex-end">
                    <Button
                      size="xs"
                      variant="outline"
                      onClick={() => onDetails(order)}
                      aria-label={`View Details of ${product}`}
                    >
                      View Details
                    </Button>
                    {onRestore && (
                      <Button
                        size="xs"
                        variant="subtle"
                        colorPalette="brand"
                        onClick={() => onRestore(order)}
                        loading={restoringId === order.id}
                        aria-label={`Restore ${product}`}
                      >
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

/** "+1 reprint" under the Printify id when the receipt has more Printify orders (issue 17). */
function ExtraPrintify({ order }: { order: OrderRowView }) {
  const text = extraPrintifyText(order);
  if (!text) return null;
  return (
    <Text fontFamily="body" fontSize="xs" color="purple.fg" whiteSpace="nowrap" data-testid="extra-printify">
      {text}
    </Text>
  );
}
