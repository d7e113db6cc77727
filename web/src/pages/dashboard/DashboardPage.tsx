import { Card, Center, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuReceipt } from 'react-icons/lu';
import type { ConnectionsStatus } from '@pod/contracts';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_REPORT_RANGE_DAYS, ReportRangeSelect } from '../../components/ReportRangeSelect';
import { LoadError } from '../../components/orders/LoadError';
import { ButtonLink } from '../../components/ui/button-link';
import { useConnectionsStatus } from '../../hooks/api/useConnections';
import { useDashboardMetrics, type DashboardDays } from '../../hooks/api/useOrders';
import { useSyncStatus } from '../../hooks/api/useSyncStatus';
import { useDisplayCurrency } from '../../hooks/useDisplayCurrency';
import { usePageTitle } from '../../hooks/usePageTitle';
import { DashboardSideCards } from './components/DashboardSideCards';
import { MetricCards, MetricCardsSkeleton } from './components/MetricCards';
import { nothingFiguredYet, SettlingNotice } from './components/SettlingNotice';
import { ShopCostCards } from './components/ShopCostCards';
import { SyncMatchCard } from './components/SyncMatchCard';
import { UnmatchedOrdersCard } from './components/UnmatchedOrdersCard';

/** No order synced yet: say what to do next instead of four zeros. */
function NoOrdersYet({ connections }: { connections: ConnectionsStatus | undefined }) {
  const connected = connections ? connections.etsy.connected || connections.printify.connected : false;
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" data-testid="no-orders-yet">
      <Card.Body>
        <Flex gap="4" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
          <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
            <Icon as={LuReceipt} boxSize="5" aria-hidden="true" />
          </Center>
          <Stack gap="1" flex="1">
            <Heading as="h2" size="md">
              No orders yet
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {connected
                ? 'Your shop is connected. Press Sync All below to bring in your orders; revenue, costs and profit show here once they arrive.'
                : 'First connect your Etsy shop and your Printify account, then press Sync All: revenue, costs and profit show here once your orders arrive.'}
            </Text>
          </Stack>
          {!connected && (
            <ButtonLink to="/connections" colorPalette="brand" flexShrink={0}>
              Go to Connections
            </ButtonLink>
          )}
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

export function DashboardPage() {
  usePageTitle('Dashboard');
  const [days, setDays] = useState<DashboardDays>(DEFAULT_REPORT_RANGE_DAYS);
  const currency = useDisplayCurrency();
  const { status: connections, error: connectionsError, reload: reloadConnections } = useConnectionsStatus();
  const { syncStatus, error: syncStatusError } = useSyncStatus();
  const { metrics, error: metricsError, reload: reloadMetrics } = useDashboardMetrics(days, currency);
  const hasOrders = metrics?.hasOrders !== false;
  const settling = syncStatus?.settling === true;
  return (
    <PageContainer>
      <PageHeader
        title="Dashboard"
        subtitle="Track your Print-on-Demand business performance"
        actions={<ReportRangeSelect name="dashboard-days" days={days} onChange={setDays} />}
      />
      <Stack gap="6">
        {metricsError && !metrics ? (
          <LoadError
            title="Your figures could not be loaded"
            error={metricsError}
            onRetry={() => void reloadMetrics()}
          />
        ) : !metrics || (settling && nothingFiguredYet(metrics)) ? (
          <Stack gap="3">
            {settling && <SettlingNotice />}
            <MetricCardsSkeleton />
          </Stack>
        ) : hasOrders ? (
          <Stack gap="4">
            {settling && <SettlingNotice />}
            <MetricCards metrics={metrics} />
            <ShopCostCards metrics={metrics} />
          </Stack>
        ) : (
          <NoOrdersYet connections={connections} />
        )}
        {/* Side by side from xl: beside a 256 px sidebar at 1024 px, the side column was 150 px and broke "Settings" letter by letter. */}
        <SimpleGrid columns={{ base: 1, xl: 3 }} gap="6" alignItems="start">
          <Stack gridColumn={{ xl: 'span 2' }} gap="6" minW="0">
            <SyncMatchCard
              connections={connections}
              connectionsError={connectionsError}
              onRetryConnections={() => void reloadConnections()}
              syncStatus={syncStatus}
              syncStatusKnown={syncStatus !== undefined || syncStatusError !== undefined}
              metrics={metrics}
            />
          </Stack>
          <DashboardSideCards />
        </SimpleGrid>
        {/* Full width: in the two-thirds column its six columns pushed Match and Archive off to the side at 1280 px. */}
        {hasOrders && <UnmatchedOrdersCard days={days} />}
      </Stack>
    </PageContainer>
  );
}
