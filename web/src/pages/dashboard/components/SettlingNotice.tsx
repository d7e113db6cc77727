import { Flex, Spinner, Text } from '@chakra-ui/react';
import type { DashboardMetricsResponse } from '@pod/contracts';

/** The sentence beside the cards while a sync, match or profit run is on (issue 18). */
const SETTLING_TEXT = 'Figures update as Etsy’s fees arrive';

/**
 * Nothing in the window has figures yet while runs are on: the totals would read "$0.00" —
 * no sales — when the orders are only on their way. Skeletons show instead until some arrive.
 */
export function nothingFiguredYet(metrics: DashboardMetricsResponse): boolean {
  return !metrics.hasOrders || (metrics.totalRevenue.minor === 0 && metrics.totalCosts.minor === 0);
}

/**
 * Beside the metric cards while the figures settle: a sync brings the receipts first and Etsy's
 * ledger (the fees actually charged) after them, and the profit run after the last match puts
 * them in, so until then the totals hold estimated fees and are not final.
 */
export function SettlingNotice() {
  return (
    <Flex role="status" align="center" gap="2" color="fg.muted" fontSize="sm" data-testid="figures-settling">
      <Spinner size="xs" color="brand.solid" flexShrink={0} aria-hidden="true" />
      <Text>{SETTLING_TEXT}</Text>
    </Flex>
  );
}
