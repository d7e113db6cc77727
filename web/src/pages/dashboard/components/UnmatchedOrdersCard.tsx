import { Box, Button, Card, Flex, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuGitCompareArrows } from 'react-icons/lu';
import type { OrderRowView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { MoneyText } from '../../../components/money/MoneyText';
import { LoadError } from '../../../components/orders/LoadError';
import { ManualMatchDialog } from '../../../components/orders/ManualMatchDialog';
import { archiveWithUndo } from '../../../components/orders/OrderRowActions';
import { StatusBadge } from '../../../components/orders/OrderBadges';
import { ORDER_MSG } from '../../../components/orders/orderText';
import { FIT_COLUMNS_BELOW_XL } from '../../../components/orders/tableFit';
import { AppLink } from '../../../components/ui/link';
import { useOrdersPage, type DashboardDays } from '../../../hooks/api/useOrders';
import { useDisplayCurrency } from '../../../hooks/useDisplayCurrency';

/** Spec §9: the dashboard previews this many unmatched orders. */
export const UNMATCHED_PREVIEW_ROWS = 10;
const HEADING_ID = 'unmatched-orders-heading';

export const UNMATCHED_MSG = {
  empty: 'No unmatched orders found. Great job!',
  loading: 'Loading orders...',
  viewAll: (count: number) => `View All ${count} Unmatched Orders`,
} as const;

function Row({
  order,
  archiving,
  onMatch,
  onArchive,
}: {
  order: OrderRowView;
  archiving: boolean;
  onMatch: () => void;
  onArchive: () => void;
}) {
  const product = order.productTitle ?? ORDER_MSG.unknownProduct;
  // Spec §3: an order's source is Etsy when it has an Etsy side, else Printify.
  const fromEtsy = order.etsyReceiptId !== null;
  return (
    <Table.Row>
      <Table.Cell whiteSpace="nowrap">{formatOrderDate(order.orderDate) ?? '-'}</Table.Cell>
      {/* Width 100% with max-width 0: the product takes the room the other columns leave, on up to two lines. */}
      <Table.Cell w="full" maxW="0" minW="8rem" whiteSpace="normal" data-grow="">
        <Text lineClamp={2} wordBreak="break-word" title={product}>
          {product}
        </Text>
      </Table.Cell>
      <Table.Cell>{fromEtsy ? 'Etsy' : 'Printify'}</Table.Cell>
      <Table.Cell>
        <RowAmount order={order} />
      </Table.Cell>
      <Table.Cell>
        <StatusBadge status={order.status} />
      </Table.Cell>
      <Table.Cell>
        <Flex gap="2" justify="flex-end">
          <RowActions product={product} archiving={archiving} onMatch={onMatch} onArchive={onArchive} />
        </Flex>
      </Table.Cell>
    </Table.Row>
  );
}

/** An unmatched order's Match and Archive buttons, in the table row and on the phone. */
function RowActions({
  product,
  archiving,
  onMatch,
  onArchive,
}: {
  product: string;
  archiving: boolean;
  onMatch: () => void;
  onArchive: () => void;
}) {
  return (
    <>
      <Button size="xs" colorPalette="brand" variant="subtle" onClick={onMatch} aria-label={`Match ${product}`}>
        <LuGitCompareArrows aria-hidden="true" /> Match
      </Button>
      <Button size="xs" variant="outline" onClick={onArchive} loading={archiving} aria-label={`Archive ${product}`}>
        Archive
      </Button>
    </>
  );
}

/** An Etsy order's revenue; a lone Printify order has none to show. */
function RowAmount({ order }: { order: OrderRowView }) {
  return order.etsyReceiptId !== null ? (
    <MoneyText value={order.revenue} figures={order.figures} />
  ) : (
    <Text as="span" color="fg.muted">
      N/A
    </Text>
  );
}

/** The same row on a phone: the figures and both buttons without scrolling sideways. */
function PhoneRow({
  order,
  archiving,
  onMatch,
  onArchive,
}: {
  order: OrderRowView;
  archiving: boolean;
  onMatch: () => void;
  onArchive: () => void;
}) {
  const product = order.productTitle ?? ORDER_MSG.unknownProduct;
  const fromEtsy = order.etsyReceiptId !== null;
  return (
    <Box as="li" py="3" borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: '0' }}>
      <Flex justify="space-between" gap="3">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="medium" truncate>
            {product}
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {formatOrderDate(order.orderDate) ?? '-'} · {fromEtsy ? 'Etsy' : 'Printify'}
          </Text>
        </Stack>
        <Box flexShrink={0} fontSize="sm">
          <RowAmount order={order} />
        </Box>
      </Flex>
      <Flex gap="2" mt="2" align="center">
        <StatusBadge status={order.status} />
        <Box flex="1" />
        <RowActions product={product} archiving={archiving} onMatch={onMatch} onArchive={onArchive} />
      </Flex>
    </Box>
  );
}

/** Orders filtered to the unmatched orders of the Dashboard's range: what the card and its counter count. */
export const unmatchedOrdersPath = (days: DashboardDays) => `/orders?status=unmatched&days=${days}`;

/**
 * "Unmatched Orders" (spec §2; Part 2 §5): the first ten of the Dashboard's date range, so its
 * count is the "Unmatched" counter's, with Match and Archive that work.
 */
export function UnmatchedOrdersCard({ days }: { days: DashboardDays }) {
  const currency = useDisplayCurrency();
  const { page, error, isLoading, reload } = useOrdersPage({
    search: '',
    status: 'unmatched',
    days,
    source: 'all',
    view: 'active',
    page: 1,
    pageSize: UNMATCHED_PREVIEW_ROWS,
    currency,
  });
  const [matching, setMatching] = useState<OrderRowView | null>(null);
  const [archivingId, setArchivingId] = useState<string | null>(null);

  const archive = async (order: OrderRowView) => {
    setArchivingId(order.id);
    await archiveWithUndo(order); // the toast's Undo restores it
    setArchivingId(null);
  };

  const count = page?.filteredTotal;
  return (
    <Card.Root
      as="section"
      aria-labelledby={HEADING_ID}
      borderRadius="xl"
      boxShadow="xs"
      data-testid="unmatched-orders"
    >
      <Card.Header>
        <Heading as="h2" size="lg" id={HEADING_ID}>
          Unmatched Orders{count !== undefined ? ` (${count})` : ''}
        </Heading>
      </Card.Header>
      <Card.Body pt="4">
        {error && !page ? (
          <LoadError title="Unmatched orders could not be loaded" error={error} onRetry={() => void reload()} />
        ) : isLoading || !page ? (
          <Flex role="status" align="center" gap="3" color="fg.muted" py="4">
            <Spinner size="sm" color="brand.solid" aria-hidden="true" />
            <Text>{UNMATCHED_MSG.loading}</Text>
          </Flex>
        ) : page.orders.length === 0 ? (
          <Text color="fg.muted" py="4" textAlign="center">
            {UNMATCHED_MSG.empty}
          </Text>
        ) : (
          <>
            <Table.ScrollArea borderWidth="1px" borderColor="border.muted" borderRadius="lg" hideBelow="md">
              <Table.Root size="sm" minW="40rem" css={FIT_COLUMNS_BELOW_XL}>
                <Table.Header>
                  <Table.Row bg="bg.subtle">
                    <Table.ColumnHeader>Date</Table.ColumnHeader>
                    <Table.ColumnHeader data-grow="">Product</Table.ColumnHeader>
                    <Table.ColumnHeader>Source</Table.ColumnHeader>
                    <Table.ColumnHeader>Revenue</Table.ColumnHeader>
                    <Table.ColumnHeader>Status</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {page.orders.slice(0, UNMATCHED_PREVIEW_ROWS).map((order) => (
                    <Row
                      key={order.id}
                      order={order}
                      archiving={archivingId === order.id}
                      onMatch={() => setMatching(order)}
                      onArchive={() => void archive(order)}
                    />
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
            <Stack as="ul" listStyleType="none" gap="0" hideFrom="md" data-testid="unmatched-cards">
              {page.orders.slice(0, UNMATCHED_PREVIEW_ROWS).map((order) => (
                <PhoneRow
                  key={order.id}
                  order={order}
                  archiving={archivingId === order.id}
                  onMatch={() => setMatching(order)}
                  onArchive={() => void archive(order)}
                />
              ))}
            </Stack>
            {page.filteredTotal > UNMATCHED_PREVIEW_ROWS && (
              // Opens the Orders list filtered to what this card counts: unmatched, over the same range.
              <AppLink
                to={unmatchedOrdersPath(days)}
                display="inline-block"
                mt="4"
                color="brand.fg"
                fontWeight="medium"
              >
                {UNMATCHED_MSG.viewAll(page.filteredTotal)}
              </AppLink>
            )}
          </>
        )}
      </Card.Body>
      <ManualMatchDialog order={matching} onClose={() => setMatching(null)} />
    </Card.Root>
  );
}
