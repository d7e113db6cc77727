import { Box, Button, Flex, Table, Text } from '@chakra-ui/react';
import type { OrderRowView, OrdersSortKey } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { EstimatedFeesMark } from '../../../components/orders/EstimatedFeesMark';
import { MatchStatusBadge } from '../../../components/orders/OrderBadges';
import { PrintifyCostMark } from '../../../components/orders/PrintifyCostMark';
import { OrderRowActions } from '../../../components/orders/OrderRowActions';
import { ProvisionalMark } from '../../../components/orders/ProvisionalMark';
import { extraPrintifyText, ORDER_MSG } from '../../../components/orders/orderText';
import { FIT_COLUMNS_BELOW_XL } from '../../../components/orders/tableFit';
import { TruncatedText } from '../../../components/orders/TruncatedText';
import type { OrdersSort } from '../orderSort';
import { SortableHeader, SortButton } from './SortableHeader';

interface OrdersTableProps {
  orders: OrderRowView[];
  onDetails: (order: OrderRowView) => void;
  /** The list's order, and a header pressed (date, revenue, cost, profit). */
  sort: OrdersSort;
  onSort: (key: OrdersSortKey) => void;
}

const dash = (
  <Text as="span" color="fg.muted">
    -
  </Text>
);

/** The Orders table (spec §2): ids, product with SKU, date, match status, revenue, cost, profit. */
export function OrdersTable({ orders, onDetails, sort, onSort }: OrdersTableProps) {
  const sortable = { sort, onSort };
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
              {/* Below xl the date sits under the product, and so does its sort button. */}
              <Box as="span" display={{ base: 'block', xl: 'none' }} fontWeight="normal" color="fg.muted">
                <SortButton sortKey="date" {...sortable} justify="start" />
              </Box>
            </Table.ColumnHeader>
            <SortableHeader sortKey="date" {...sortable} hideBelow="xl" />
            <Table.ColumnHeader>Match Status</Table.ColumnHeader>
            <SortableHeader sortKey="revenue" {...sortable} textAlign="end" />
            <SortableHeader sortKey="cost" {...sortable} textAlign="end" />
            <SortableHeader sortKey="profit" {...sortable} textAlign="end" />
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
                      <TruncatedText text={order.printifyOrderId} maxW="5.5rem" data-testid="printify-id" />
                    ) : (
                      dash
                    )}
                    <ExtraPrintify order={order} />
                  </Box>
                </Table.Cell>
                <Table.Cell fontFamily="mono" fontSize="xs" hideBelow="xl">
                  {order.printifyOrderId ? (
                    <TruncatedText text={order.printifyOrderId} maxW="7rem" data-testid="printify-id" />
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
                    <TruncatedText hideBelow="xl" fontSize="xs" color="fg.muted" text={`SKU: ${order.productSku}`} />
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
                      {order.cost && (order.figures === 'ok' || order.figures === 'provisional') && (
                        <EstimatedFeesMark order={order} />
                      )}
                      <PrintifyCostMark order={order} />
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <MoneyText value={order.profit} figures={order.figures} signed fontWeight="medium" />
                      {order.figures === 'provisional' && <ProvisionalMark />}
                      {order.profitMarginPercent !== null && (
                        // The margin (a sort of its own) in few characters: the column has no room for the word.
                        <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap" data-testid="margin">
                          {order.profitMarginPercent.toFixed(1)}%
                          <Text as="span" srOnly>
                            {' '}
                            margin
                          </Text>
                        </Text>
                      )}
                    </Table.Cell>
                  </>
                )}
                <Table.Cell>
                  {/* The changes under View Details, so the column is no wider than View Details and every column fits at 1024 px. */}
                  <Flex direction="column" gap="1" align="flex-end">
                    <Button
                      size="xs"
                      variant="outline"
                      onClick={() => onDetails(order)}
                      aria-label={`View Details of ${product}`}
                    >
                      View Details
                    </Button>
                    <Flex gap="1" justify="flex-end">
                      <OrderRowActions order={order} size="xs" />
                    </Flex>
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
