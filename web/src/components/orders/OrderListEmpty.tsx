import { Stack, Text } from '@chakra-ui/react';
import { useConnectionsStatus } from '../../hooks/api/useConnections';
import { ButtonLink } from '../ui/button-link';

/**
 * An order list with nothing to show: before any shop is connected there is nothing to filter
 * (a brand-new account), so it says so and leads to Connections (issue 18); otherwise it is the
 * filters that leave nothing.
 */
export function OrderListEmpty({ testId }: { testId: string }) {
  const { status } = useConnectionsStatus();
  const noShop = status !== undefined && !status.etsy.connected && !status.printify.connected;
  if (noShop) {
    return (
      <Stack align="center" gap="2" py="12" px="4" textAlign="center" data-testid={testId} data-empty="no-shop">
        <Text fontWeight="semibold">No shop connected yet</Text>
        <Text color="fg.muted" fontSize="sm" maxW="28rem">
          Connect your Etsy shop and your Printify account: your orders show here once they are synced.
        </Text>
        <ButtonLink to="/connections" colorPalette="brand" size="sm" mt="2">
          Go to Connections
        </ButtonLink>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="1" py="12" textAlign="center" data-testid={testId} data-empty="filters">
      <Text fontWeight="semibold">No orders found</Text>
      <Text color="fg.muted" fontSize="sm">
        No orders match your current filters.
      </Text>
    </Stack>
  );
}
