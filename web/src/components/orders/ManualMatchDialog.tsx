import { Box, Button, CloseButton, Dialog, Flex, Heading, Input, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { OrderRowView } from '@pod/contracts';
import { matchOrderManually } from '../../hooks/api/orderActions';
import { useMatchCandidates } from '../../hooks/api/useOrders';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { toaster } from '../ui/toaster';
import { LoadError } from './LoadError';
import { MatchCandidateItem } from './MatchCandidateItem';
import { MatchOrderSummary } from './MatchOrderSummary';
import { SourceBadge } from './OrderBadges';
import { changeErrorText, ORDER_MSG } from './orderText';
import { Pager } from './Pager';

const SEARCH_DEBOUNCE_MS = 300;

interface ManualMatchDialogProps {
  /** The order to match; null keeps the dialog closed. */
  order: OrderRowView | null;
  onClose: () => void;
  /** After a match (default: onClose). */
  onMatched?: () => void;
}

/**
 * "Manual Order Matching" (spec §2; Part 2 §5; issue 18): the selected order and its potential
 * matches, best fit first, searched and paged by the server; orders that need no fulfilment and
 * those that cannot be the same sale are not offered (a search finds any). A match below the
 * matcher's review threshold is confirmed, the low parts of the fit named. Match pairs the two,
 * refreshes every order list and closes with a toast.
 */
export function ManualMatchDialog({ order, onClose, onMatched = onClose }: ManualMatchDialogProps) {
  const currency = useDisplayCurrency();
  const [search, setSearch] = useState('');
  const settledSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [pagedSearch, setPagedSearch] = useState(settledSearch);
  if (pagedSearch !== settledSearch) {
    setPagedSearch(settledSearch);
    setPage(1);
  }
  const { candidates, error, isLoading, isValidating, reload } = useMatchCandidates(order?.id ?? null, currency, {
    search: settledSearch,
    page,
  });
  const [matchingId, setMatchingId] = useState<string | null>(null);
  const [confirmingId, setConfirmingId] = useState<string | null>(null);
  // Opened for another order: start again without the last order's search, page or question.
  const [openedFor, setOpenedFor] = useState(order?.id ?? null);
  if (openedFor !== (order?.id ?? null)) {
    setOpenedFor(order?.id ?? null);
    setSearch('');
    setPage(1);
    setConfirmingId(null);
  }

  const match = async (withOrderId: string) => {
    if (!order) return;
    setMatchingId(withOrderId);
    try {
      await matchOrderManually(order.id, withOrderId);
      toaster.success(ORDER_MSG.manualMatched);
      onMatched();
    } catch (caught) {
      toaster.error(changeErrorText(caught, ORDER_MSG.manualMatchFailed));
      void reload(); // the candidate may have been matched meanwhile
    } finally {
      setMatchingId(null);
      setConfirmingId(null);
    }
  };

  const list = candidates?.candidates ?? [];
  const total = candidates?.total ?? 0;
  const pageCount = candidates ? Math.max(1, Math.ceil(total / candidates.pageSize)) : 1;
  const searching = settledSearch.trim() !== '';
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
          As tall as its content, up to the screen less a margin. Only the candidate list scrolls;
          the selected order, the search and Close stay in view.
        */}
        <Dialog.Positioner px={{ base: '3', sm: '4' }}>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Manual Order Matching</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body display="flex" flexDirection="column" minH="0">
              {order && (
                <Stack gap="4" minH="0" flex="0 1 auto">
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
                      <MatchOrderSummary order={order} />
                      <SourceBadge source={order.source} />
                    </Flex>
                  </Box>
                  <Stack gap="2" minH="0" flex="0 1 auto">
                    <Heading as="h3" size="sm" flexShrink={0}>
                      Potential Matches{candidates ? ` (${total})` : ''}
                    </Heading>
                    <Input
                      size="sm"
                      flexShrink={0}
                      value={search}
                      onChange={(event) => setSearch(event.target.value)}
                      placeholder="Search by name, product or order ID..."
                      aria-label="Search potential matches"
                      maxLength={100}
                    />
                    <Text fontSize="xs" color="fg.muted" flexShrink={0}>
                      {searching
                        ? 'Every order that fits the search, best fit first. Digital downloads and samples are left out.'
                        : 'Best fit first. Digital downloads, samples and orders dated too far apart are left out: search to find one.'}
                    </Text>
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
                      <Text color="fg.muted" fontSize="sm" py="2" role="status">
                        {searching
                          ? `No unmatched order from the other side matches "${settledSearch.trim()}".`
                          : 'No unmatched order from the other side fits this one. Search by name or order ID, or sync both services and try again.'}
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
                        aria-busy={isValidating}
                        data-testid="match-candidates"
                      >
                        {list.map(({ order: candidate, fit }) => {
                          const lowFit = fit.score < candidates.lowFitBelow;
                          return (
                            <MatchCandidateItem
                              key={candidate.id}
                              selected={order}
                              candidate={candidate}
                              fit={fit}
                              lowFit={lowFit}
                              confirming={confirmingId === candidate.id}
                              matching={matchingId === candidate.id}
                              disabled={matchingId !== null}
                              onMatch={() => (lowFit ? setConfirmingId(candidate.id) : void match(candidate.id))}
                              onConfirm={() => void match(candidate.id)}
                              onCancel={() => setConfirmingId(null)}
                            />
                          );
                        })}
                      </Stack>
                    )}
                    {pageCount > 1 && (
                      <Pager
                        label="Potential matches pages"
                        page={page}
                        pageCount={pageCount}
                        onPage={setPage}
                        busy={isValidating}
                      />
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
