import { Box, Flex, Spinner, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LoadError } from './LoadError';
import { OrderListEmpty } from './OrderListEmpty';

interface OrderListStatusProps<T extends { orders: unknown[] }> {
  result: T | undefined;
  error: unknown;
  /** No answer for the current filters yet; `result`, if any, is the previous filters' (SWR keepPreviousData). */
  isLoading: boolean;
  onRetry: () => void;
  /** `data-testid` of the empty state, which the browser tests look for. */
  emptyTestId: string;
  /** The list itself, once there is a non-empty answer. */
  children: (result: T) => ReactNode;
}

/**
 * What an order list shows before and instead of its rows — the load error (with Try again),
 * "Loading orders..." and the spec's empty state — shared by the Orders and Order Matching
 * pages so their texts cannot drift apart. While new filters load, the previous answer stays on
 * screen, dimmed and busy (issue 18): the rows, like the counts the page shows from the same
 * answer, change together when the new one arrives.
 */
export function OrderListStatus<T extends { orders: unknown[] }>({
  result,
  error,
  isLoading,
  onRetry,
  emptyTestId,
  children,
}: OrderListStatusProps<T>) {
  if (error && !result) return <LoadError title="Orders could not be loaded" error={error} onRetry={onRetry} />;
  if (!result) {
    return (
      <Flex role="status" align="center" gap="3" color="fg.muted" py="10" justify="center" data-testid="list-loading">
        <Spinner size="sm" color="brand.solid" aria-hidden="true" />
        <Text>Loading orders...</Text>
      </Flex>
    );
  }
  const stale = isLoading;
  return (
    <Box
      aria-busy={stale}
      opacity={stale ? 0.5 : undefined}
      transition="opacity 0.15s"
      _motionReduce={{ transition: 'none' }}
      pointerEvents={stale ? 'none' : undefined}
      data-stale={stale ? '' : undefined}
      data-testid="order-list"
    >
      {stale && (
        <Text srOnly role="status">
          Loading orders...
        </Text>
      )}
      {result.orders.length === 0 ? <OrderListEmpty testId={emptyTestId} /> : children(result)}
    </Box>
  );
}
