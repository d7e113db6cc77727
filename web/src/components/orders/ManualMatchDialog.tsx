import { Box, Button, CloseButton, Dialog, Flex, Heading, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { OrderRowView } from '@pod/contracts';
import { matchOrderManually } from '../../hooks/api/orderActions';
import { useMatchCandidates } from '../../hooks/api/useOrders';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { formatOrderDate } from '../money/format';
import { MoneyText } from '../money/MoneyText';
import { toaster } from '../ui/toaster';
import { LoadError } from './LoadError';
import { SourceBadge } from './OrderBadges';
import { changeErrorText, ORDER_MSG } from './orderText';

interface ManualMatchDialogProps {
  /** The order to match; null keeps the dialog closed. */
  order: OrderRowView | null;
  onClose: () => void;
}

function OrderSummary({ order }: { order: OrderRowView }) {
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

/**
 * "Manual Order Matching" (spec §2; Part 2 §5): the selected order and its potential matches,
 * best first; Match pairs the two, refreshes every order list and closes with a toast.
 */
export function ManualMatchDialog({ order, onClose }: ManualMatchDialogProps) {
  const currency = useDisplayCurrency();
  const { candidates, error, isLoading, reload } = useMatchCandidates(order?.id ?? null, currency);
  const [matchingId, setMatchingId] = useState<string | null>(null);

  const match = async (withOrderId: string) => {
    if (!order) return;
    setMatchingId(withOrderId);
    try {
      await matchOrderManually(order.id, withOrderId);
      toaster.success(ORDER_MSG.manualMatched);
      onClose();
    } catch (caught) {
      toaster.error(changeErrorText(caught, ORDER_MSG.manualMatchFailed));
      void reload(); // the candidate may have been matched meanwhile
    } finally {
      setMatchingId(null);
    }
  };

  const list = candidates?.candidates ?? [];
  return (
    <Dialog.Root
      open={order !== null}
      onOpenChange={(details) => {
        if (!details.open && matchingId === null) onClose();
      }}
      placement="center"
      scrollBehavior="inside"
      size="lg"
    >
      <Portal>
        <Dialog.Backdrop />
        {/*
          As tall as its content, up to the screen less a margin (a responsive "full" size kept its
          100dvh min-height from the phone at every width: a tall empty panel with few candidates).
          Only the candidate list scrolls; the selected order, the heading and Close stay in view.
        */}
        <Dialog.Positioner px={{ base: '3', sm: '4' }}>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Manual Order Matching</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" minH="0">
              {order && (
                <Stack gap="5" minH="0" flex="0 1 auto">
                  <Box
                    borderWidth="1px"
                    borderColor="border.muted"
                    borderRadius="lg"
                    p="3"
                    bg="bg.subtle"
                    flexShrink={0}
                  >
                    <Text fontSize="xs" fontWeight="medium" color="fg.muted" mb="1">
                      Selected order
                    </Text>
                    <Flex justify="space-between" gap="3" align="flex-start">
                      <OrderSummary order={order} />
                      <SourceBadge source={order.source} />
                    </Flex>
                  </Box>
                  <Stack gap="2" minH="0" flex="0 1 auto">
                    <Heading as="h3" size="sm" flexShrink={0}>
                      Potential Matches ({list.length})
                    </Heading>
                    {error ? (
                      <LoadError
                        title="Potential matches could not be loaded"
                        error={error}
                        onRetry={() => void reload()}
                      />
                    ) : isLoading || !candidates ? (
                      <Flex role="status" align="center" gap="3" color="fg.muted" py="4">
                        <Spinner size="sm" color="brand.solid" aria-hidden="true" />
                        <Text>Loading potential matches...</Text>
                      </Flex>
                    ) : list.length === 0 ? (
                      <Text color="fg.muted" fontSize="sm" py="2">
                        No unmatched order from the other side fits this one. Sync both services, then try again.
                      </Text>
                    ) : (
                      // Keyboard-scrollable (tabIndex); never shorter than one candidate, even on a short screen.
                      <Stack
                        as="ul"
                        listStyleType="none"
                        gap="2"
                        minH="6rem"
                        flex="0 1 auto"
                        overflowY="auto"
                        pr="1"
                        tabIndex={0}
                        aria-label="Potential matches"
                        data-testid="match-candidates"
                      >
                        {list.map(({ order: candidate, score }) => (
                          <Flex
                            as="li"
                            key={candidate.id}
                            gap="3"
                            align="center"
                            borderWidth="1px"
                            borderColor="border.muted"
                            borderRadius="lg"
                            p="3"
                          >
                            <Stack gap="1" flex="1" minW="0">
                              <OrderSummary order={candidate} />
                              <Flex gap="2" align="center" wrap="wrap" fontSize="sm">
                                <SourceBadge source={candidate.source} />
                                <Text color="fg.muted">{Math.round(score * 100)}% fit</Text>
                                {candidate.revenue && (
                                  <MoneyText value={candidate.revenue} figures={candidate.figures} fontSize="sm" />
                                )}
                                {!candidate.revenue && candidate.cost && (
                                  <MoneyText value={candidate.cost} figures={candidate.figures} fontSize="sm" />
                                )}
                              </Flex>
                            </Stack>
                            <Button
                              size="sm"
                              colorPalette="brand"
                              onClick={() => void match(candidate.id)}
                              loading={matchingId === candidate.id}
                              disabled={matchingId !== null}
                              aria-label={`Match with ${candidate.productTitle ?? ORDER_MSG.unknownProduct}, ${candidate.customerName ?? ORDER_MSG.unknownCustomer}`}
                            >
                              Match
                            </Button>
                          </Flex>
                        ))}
                      </Stack>
                    )}
                  </Stack>
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={matchingId !== null}>
                Close
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" disabled={matchingId !== null} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
