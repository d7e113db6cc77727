import { Box, Button, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { EstimatedFeesMark } from '../../../components/orders/EstimatedFeesMark';
import { MatchStatusBadge } from '../../../components/orders/OrderBadges';
import { OrderCard } from '../../../components/orders/OrderCard';
import { PrintifyCostMark } from '../../../components/orders/PrintifyCostMark';
import { OrderRowActions } from '../../../components/orders/OrderRowActions';
import { ProvisionalMark } from '../../../components/orders/ProvisionalMark';
import { extraPrintifyText, ORDER_MSG } from '../../../components/orders/orderText';

interface OrdersCardListProps {
  orders: OrderRowView[];
  onDetails: (order: OrderRowView) => void;
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap="0">
      <Text as="dt" fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Box as="dd" fontSize="sm">
        {children}
      </Box>
    </Stack>
  );
}

/** The Orders table on a phone: one card per order, the money in view without scrolling sideways. */
export function OrdersCardList({ orders, onDetails }: OrdersCardListProps) {
  return (
    <Stack as="ul" listStyleType="none" gap="3" data-testid="orders-cards">
      {orders.map((order) => {
        const product = order.productTitle ?? ORDER_MSG.unknownProduct;
        return (
          <OrderCard
            key={order.id}
            product={product}
            badge={<MatchStatusBadge order={order} />}
            details={
              <>
                {order.productSku && (
                  <Text fontSize="xs" color="fg.muted" truncate>
                    SKU: {order.productSku}
                  </Text>
                )}
                <Text fontSize="xs" color="fg.muted">
                  {formatOrderDate(order.orderDate) ?? '-'} · Etsy {order.etsyReceiptId ?? '-'}
                </Text>
                {/* A phone has no hover: the whole id, wrapped. */}
                <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
                  Printify {order.printifyOrderId ?? '-'}
                  {extraPrintifyText(order) && (
                    <Text as="span" color="purple.fg" data-testid="extra-printify">
                      {` · ${extraPrintifyText(order)}`}
                    </Text>
                  )}
                </Text>
              </>
            }
          >
            {order.figures === 'ok' || order.figures === 'provisional' ? (
              <SimpleGrid as="dl" columns={3} gap="2" mt="3">
                <Figure label="Revenue">
                  <MoneyText value={order.revenue} />
                </Figure>
                <Figure label="Cost">
                  <MoneyText value={order.cost} />
                  {order.cost && <EstimatedFeesMark order={order} />}
                  <PrintifyCostMark order={order} />
                </Figure>
                <Figure label="Profit">
                  <MoneyText value={order.profit} signed fontWeight="medium" />
                  {order.figures === 'provisional' && <ProvisionalMark />}
                </Figure>
              </SimpleGrid>
            ) : (
              // One "Rate unavailable" (or "-") says it for all three figures.
              <Flex mt="3" gap="2" fontSize="sm" align="center">
                <Text color="fg.muted">Revenue, cost and profit:</Text>
                <MoneyText value={null} figures={order.figures} />
              </Flex>
            )}
            <Flex gap="2" mt="3">
              <Button
                size="sm"
                variant="outline"
                flex="1"
                onClick={() => onDetails(order)}
                aria-label={`View Details of ${product}`}
              >
                View Details
              </Button>
              <OrderRowActions order={order} size="sm" stretch />
            </Flex>
          </OrderCard>
        );
      })}
    </Stack>
  );
}
