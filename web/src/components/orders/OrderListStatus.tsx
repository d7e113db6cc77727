import { Flex, Spinner, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LoadError } from './LoadError';

interface OrderListStatusProps<T extends { orders: unknown[] }> {
  result: T | undefined;
  error: unknown;
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
 * pages so their texts cannot drift apart.
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
  if (isLoading || !result) {
    return (
      <Flex role="status" align="center" gap="3" color="fg.muted" py="10" justify="center">
        <Spinner size="sm" color="brand.solid" aria-hidden="true" />
        <Text>Loading orders...</Text>
      </Flex>
    );
  }
  if (result.orders.length === 0) {
    return (
      <Stack align="center" gap="1" py="12" textAlign="center" data-testid={emptyTestId}>
        <Text fontWeight="semibold">No orders found</Text>
        <Text color="fg.muted" fontSize="sm">
          No orders match your current filters.
        </Text>
      </Stack>
    );
  }
  return <>{children(result)}</>;
}
