import {
  Box,
  Button,
  CloseButton,
  Dialog,
  Flex,
  Heading,
  Portal,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import type { EtsySideView, MoneyView, PrintifySideView } from '@pod/contracts';
import { formatMoney, formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { LoadError } from '../../../components/orders/LoadError';
import { ManualMatchDialog } from '../../../components/orders/ManualMatchDialog';
import { MatchStatusBadge } from '../../../components/orders/OrderBadges';
import { ORDER_MSG } from '../../../components/orders/orderText';
import { OrderRowActions, orderActionsOf } from '../../../components/orders/OrderRowActions';
import { UnmatchConfirmDialog } from '../../../components/orders/UnmatchConfirmDialog';
import { useOrderDetails } from '../../../hooks/api/useOrders';
import { useDisplayCurrency } from '../../../hooks/useDisplayCurrency';
import { PendingExplanation } from './PendingExplanation';
import { MissingSide } from './MissingSide';
import { PrintifyOrdersOnReceipt } from './PrintifyOrdersOnReceipt';
import { ProfitSummary } from './ProfitSummary';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex justify="space-between" gap="3" fontSize="sm">
      <Text as="dt" color="fg.muted" flexShrink={0}>
        {label}
      </Text>
      <Box as="dd" textAlign="end" minW="0" overflowWrap="anywhere">
        {children}
      </Box>
    </Flex>
  );
}

function Side({
  title,
  missing,
  wide = false,
  children,
}: {
  title: string;
  missing: string | null;
  /** The order's only side: its fields in two columns from md up, not one long column. */
  wide?: boolean;
  children?: ReactNode;
}) {
  return (
    <Stack gap="3" borderWidth="1px" borderColor="border.muted" borderRadius="lg" p="4">
      <Heading as="h3" size="sm">
        {title}
      </Heading>
      {missing ? (
        <Text fontSize="sm" color="fg.muted">
          {missing}
        </Text>
      ) : (
        <SimpleGrid as="dl" columns={{ base: 1, md: wide ? 2 : 1 }} columnGap="8" rowGap="2">
          {children}
        </SimpleGrid>
      )}
    </Stack>
  );
}

const original = (value: MoneyView) => `${formatMoney(value)} ${value.currency}`;

function EtsyColumn({ etsy, wide }: { etsy: EtsySideView | null; wide?: boolean }) {
  return (
    <Side title="Etsy order" missing={etsy ? null : 'No matching Etsy order found'} wide={wide}>
      {etsy && (
        <>
          <Field label="Receipt ID">{etsy.receiptId}</Field>
          <Field label="Customer">{etsy.customerName ?? '-'}</Field>
          <Field label="Order date">{formatOrderDate(etsy.orderDate) ?? '-'}</Field>
          <Field label="Status">{etsy.status}</Field>
          <Field label="Revenue">
            <MoneyText value={etsy.revenue} figures={etsy.revenue ? 'ok' : 'rate_unavailable'} />
          </Field>
          <Field label="Buyer paid (original)">{original(etsy.originalTotal)}</Field>
          {etsy.lines.map((line, index) => (
            <Field key={index} label={`Product${etsy.lines.length > 1 ? ` ${index + 1}` : ''}`}>
              <Text>{line.title ?? ORDER_MSG.unknownProduct}</Text>
              {line.sku && (
                <Text fontSize="xs" color="fg.muted">
                  SKU: {line.sku}
                </Text>
              )}
              <Text fontSize="xs" color="fg.muted">
                Quantity {line.quantity} · {formatMoney(line.price)} each
              </Text>
            </Field>
          ))}
        </>
      )}
    </Side>
  );
}

/**
 * The receipt's Printify side. With several Printify orders (issue 17) its costs are theirs
 * together, as the Profit Summary counts them; the list below the columns has each one's.
 */
function PrintifyColumn({
  printify,
  orderCount,
  wide,
}: {
  printify: PrintifySideView | null;
  orderCount: number;
  wide?: boolean;
}) {
  const several = orderCount > 1;
  return (
    <Side
      title={several ? `Printify orders (${orderCount}, together)` : 'Printify order'}
      missing={printify ? null : 'No matching Printify order found'}
      wide={wide}
    >
      {printify && (
        <>
          <Field label={several ? 'Original order ID' : 'Order ID'}>
            {/* Monospace and small, as in the list below: a 24-character id fits beside its label on a phone. */}
            <Text fontFamily="mono" fontSize="xs" lineHeight="taller">
              {printify.orderId}
            </Text>
          </Field>
          {printify.externalId && <Field label="External ID">{printify.externalId}</Field>}
          <Field label="Status">{printify.status}</Field>
          <Field label="Production cost">
            <MoneyText value={printify.productionCost} />
          </Field>
          <Field label="Shipping cost">
            <MoneyText value={printify.shippingCost} />
          </Field>
          {printify.taxCost && printify.taxCost.minor !== 0 && (
            <Field label="Tax">
              <MoneyText value={printify.taxCost} />
            </Field>
          )}
          <Field label="Total cost">
            <MoneyText
              value={printify.totalCost}
              figures={printify.totalCost ? 'ok' : 'rate_unavailable'}
              fontWeight="medium"
            />
          </Field>
          <Field label="Total cost (original)">{original(printify.originalTotalCost)}</Field>
          {/* With several orders the products are listed per order below (a split carries others). */}
          {!several &&
            printify.lines.map((line, index) => (
              <Field key={index} label={`Product${printify.lines.length > 1 ? ` ${index + 1}` : ''}`}>
                <Text>{line.title ?? ORDER_MSG.unknownProduct}</Text>
                {line.sku && (
                  <Text fontSize="xs" color="fg.muted">
                    SKU: {line.sku}
                  </Text>
                )}
                <Text fontSize="xs" color="fg.muted">
                  Quantity {line.quantity}
                </Text>
              </Field>
            ))}
        </>
      )}
    </Side>
  );
}

/** Order Details (spec §2; Part 2 §3–§5): both sides, the Profit Summary when matched, and Unmatch. */
export function OrderDetailsDialog({ orderId, onClose }: { orderId: string | null; onClose: () => void }) {
  const currency = useDisplayCurrency();
  const { details, error, isLoading, reload } = useOrderDetails(orderId, currency);
  const [confirmingUnmatch, setConfirmingUnmatch] = useState(false);
  const [adding, setAdding] = useState(false);
  const order = details?.order;

  return (
    <Dialog.Root
      open={orderId !== null}
      onOpenChange={(change) => {
        if (!change.open) onClose();
      }}
      placement="center"
      scrollBehavior="inside"
      // As tall as the order needs (a responsive "full" size kept its 100dvh at every width:
      // screen-tall and mostly empty for a one-sided order); narrower for one side.
      size={details && !(details.etsy && details.printify) ? 'lg' : 'xl'}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px={{ base: '3', sm: '4' }}>
          <Dialog.Content>
            <Dialog.Header>
              <Flex gap="3" align="center" wrap="wrap">
                <Dialog.Title>Order Details</Dialog.Title>
                {order && <MatchStatusBadge order={order} />}
              </Flex>
            </Dialog.Header>
            <Dialog.Body tabIndex={0}>
              {error && !details ? (
                <LoadError title="The order could not be loaded" error={error} onRetry={() => void reload()} />
              ) : isLoading || !details || !order ? (
                <Flex role="status" align="center" gap="3" color="fg.muted" py="6">
                  <Spinner size="sm" color="brand.solid" aria-hidden="true" />
                  <Text>Loading order...</Text>
                </Flex>
              ) : (
                <Stack gap="4">
                  {details.etsy && details.printify ? (
                    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                      <EtsyColumn etsy={details.etsy} />
                      <PrintifyColumn printify={details.printify} orderCount={details.printifyOrders?.length ?? 0} />
                    </SimpleGrid>
                  ) : (
                    // One side (issue 18): that side across the dialog, and one line for the side it lacks.
                    <>
                      {details.etsy && <EtsyColumn etsy={details.etsy} wide />}
                      {details.printify && (
                        <PrintifyColumn
                          printify={details.printify}
                          orderCount={details.printifyOrders?.length ?? 0}
                          wide
                        />
                      )}
                      <MissingSide order={order} />
                    </>
                  )}
                  {(details.printifyOrders?.length ?? 0) > 1 && (
                    <PrintifyOrdersOnReceipt
                      recordId={order.id}
                      orders={details.printifyOrders}
                      onChanged={() => void reload()}
                    />
                  )}
                  <PendingExplanation details={details} />
                  {order.status === 'matched' && details.profit && (
                    <ProfitSummary profit={details.profit} order={order} />
                  )}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer flexWrap="wrap">
              {order && <OrderRowActions order={order} size="sm" showUnmatch={false} onChanged={onClose} />}
              {order?.etsyReceiptId && order.printifyOrderId && !order.archived && (
                <Button variant="outline" onClick={() => setAdding(true)}>
                  Add Printify order
                </Button>
              )}
              {order && orderActionsOf(order).unmatch && (
                <Button variant="outline" colorPalette="red" onClick={() => setConfirmingUnmatch(true)}>
                  Unmatch
                </Button>
              )}
              <Button variant="outline" onClick={onClose}>
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
      {confirmingUnmatch && order && (
        <UnmatchConfirmDialog order={order} onClose={() => setConfirmingUnmatch(false)} onUnmatched={onClose} />
      )}
      {/* A replacement or another order for this receipt (issue 17): the Manual Order Matching dialog offers lone Printify orders. */}
      <ManualMatchDialog
        order={adding && order ? order : null}
        onClose={() => {
          setAdding(false);
          void reload();
        }}
      />
    </Dialog.Root>
  );
}
