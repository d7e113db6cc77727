import {
  Alert,
  Box,
  Button,
  Card,
  Center,
  Flex,
  Heading,
  Icon,
  SimpleGrid,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LuCircleAlert, LuGitCompareArrows, LuPlug, LuReceipt, LuRefreshCw } from 'react-icons/lu';
import type { ConnectionsStatus, DashboardMetricsResponse, Provider, SyncStatusResponse } from '@pod/contracts';
import { PROVIDERS } from '@pod/contracts';
import { formatPercent } from '../../../components/money/format';
import { MatchRunButton } from '../../../components/orders/MatchRunButton';
import { ORDER_MSG } from '../../../components/orders/orderText';
import { useMatchRun } from '../../../components/orders/useMatchRun';
import { SyncRunProgress } from '../../../components/sync/SyncRunProgress';
import { PROVIDER_LABEL } from '../../../components/sync/syncRunText';
import { AppLink } from '../../../components/ui/link';
import { ButtonLink } from '../../../components/ui/button-link';
import { useSyncAll, type StartProblem } from '../useSyncAll';

const HEADING_ID = 'sync-match-heading';

interface SyncMatchCardProps {
  connections: ConnectionsStatus | undefined;
  connectionsError: Error | undefined;
  onRetryConnections: () => void;
  syncStatus: SyncStatusResponse | undefined;
  /** The status has answered (with runs or an error): until then Sync All waits. */
  syncStatusKnown: boolean;
  /** GET /api/dashboard/metrics for the chosen range; undefined while it loads (or failed). */
  metrics: DashboardMetricsResponse | undefined;
}

/** Matched, Unmatched, Pending and the margin as a rounded percent (spec §2, §9); "-" until known. */
function countersOf(metrics: DashboardMetricsResponse | undefined) {
  const count = (value: number | undefined) => (value === undefined ? '-' : value.toLocaleString('en-US'));
  return [
    { label: 'Matched', value: count(metrics?.matchedOrders) },
    { label: 'Unmatched', value: count(metrics?.unmatchedOrders) },
    { label: 'Pending', value: count(metrics?.pendingOrders) },
    { label: 'Profit Margin', value: metrics?.profitMargin == null ? '-' : formatPercent(metrics.profitMargin, 0) },
  ];
}

function CardFrame({ children }: { children: ReactNode }) {
  return (
    <Card.Root as="section" aria-labelledby={HEADING_ID} borderRadius="xl" boxShadow="xs" data-testid="sync-match-card">
      <Card.Header>
        <Heading as="h2" size="lg" id={HEADING_ID}>
          Sync &amp; Match Orders
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          Bring in your latest Etsy orders and Printify costs.
        </Text>
      </Card.Header>
      <Card.Body pt="4">{children}</Card.Body>
    </Card.Root>
  );
}

/** A provider the card cannot sync: not connected, or refused access (spec §2, Part 2 §7). */
function UnusableProvider({ provider, needsReconnect }: { provider: Provider; needsReconnect: boolean }) {
  const label = PROVIDER_LABEL[provider];
  return (
    <Stack gap="1" data-testid={`sync-run-${provider}`} data-status={needsReconnect ? 'reconnect' : 'not-connected'}>
      <Text fontWeight="semibold">{label}</Text>
      <Text fontSize="sm" color={needsReconnect ? 'fg.warning' : 'fg.muted'}>
        {needsReconnect ? `${label} needs reconnecting before it can sync. ` : `${label} is not connected. `}
        <AppLink to="/connections" color="brand.fg" fontWeight="medium">
          {needsReconnect ? `Reconnect ${label}` : `Connect ${label}`}
        </AppLink>
      </Text>
    </Stack>
  );
}

/**
 * The shop Sync All syncs: the one chosen when Printify was connected. Choosing another is done
 * by connecting Printify again on the Connections page (its shop choice), not on every sync.
 */
function PrintifyShopLine({ shopTitle }: { shopTitle: string | null }) {
  return (
    <Text fontSize="sm" color="fg.muted" data-testid="sync-printify-shop">
      {shopTitle ? `Syncs ${shopTitle}. ` : 'Syncs the shop chosen when connecting. '}
      To sync another shop, reconnect Printify on the{' '}
      <AppLink to="/connections" color="brand.fg" fontWeight="medium">
        Connections page
      </AppLink>
      .
    </Text>
  );
}

function ProblemLine({ provider, problem }: { provider: Provider; problem: StartProblem }) {
  return (
    <Flex gap="1.5" align="flex-start" fontSize="sm" color="fg.error" data-testid={`sync-problem-${provider}`}>
      <Icon as={LuCircleAlert} boxSize="4" mt="0.5" flexShrink={0} aria-hidden="true" />
      <Text>
        {problem.message}{' '}
        {problem.connectionsFix && (
          <AppLink to="/connections" color="fg.error" fontWeight="medium" textDecoration="underline">
            Go to Connections
          </AppLink>
        )}
      </Text>
    </Flex>
  );
}

function Counters({ metrics }: { metrics: DashboardMetricsResponse | undefined }) {
  return (
    <SimpleGrid as="dl" columns={{ base: 2, sm: 4 }} gap="3" data-testid="sync-counters">
      {countersOf(metrics).map((counter) => (
        <Box
          key={counter.label}
          borderWidth="1px"
          borderColor="border.muted"
          borderRadius="lg"
          px="3"
          py="2.5"
          bg="bg.subtle"
        >
          <Text as="dt" fontSize="xs" fontWeight="medium" color="fg.muted">
            {counter.label}
          </Text>
          <Text as="dd" fontSize="xl" fontWeight="semibold" lineHeight="short">
            {counter.value}
          </Text>
        </Box>
      ))}
    </SimpleGrid>
  );
}

/** Nothing connected yet: say what to do instead of offering a sync that cannot run. */
function ConnectFirst() {
  return (
    <Stack gap="4" align="flex-start" data-testid="sync-connect-first">
      <Flex gap="3" align="flex-start">
        <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
          <Icon as={LuPlug} boxSize="5" aria-hidden="true" />
        </Center>
        <Stack gap="1">
          <Text fontWeight="semibold">Connect Etsy and Printify to start</Text>
          <Text fontSize="sm" color="fg.muted">
            PodProfit syncs your Etsy orders and your Printify costs once both are connected, then works out what every
            order earned you.
          </Text>
        </Stack>
      </Flex>
      <ButtonLink to="/connections" colorPalette="brand" alignSelf={{ base: 'stretch', sm: 'flex-start' }}>
        <LuPlug aria-hidden="true" /> Go to Connections
      </ButtonLink>
    </Stack>
  );
}

/**
 * "Sync & Match Orders" (spec §2, §4, §8; Part 2 §7): Sync All with its progress per provider,
 * Match Orders (disabled while it runs), View All Orders, and the counters of the chosen range.
 */
export function SyncMatchCard({
  connections,
  connectionsError,
  onRetryConnections,
  syncStatus,
  syncStatusKnown,
  metrics,
}: SyncMatchCardProps) {
  const sync = useSyncAll(connections);
  const matchRun = useMatchRun(ORDER_MSG.matchCompleted);

  if (!connections) {
    return (
      <CardFrame>
        {connectionsError ? (
          <Alert.Root status="error" borderRadius="md">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Your connections could not be loaded</Alert.Title>
              <Alert.Description>Syncing needs them. Please try again in a moment.</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={onRetryConnections}>
              Try again
            </Button>
          </Alert.Root>
        ) : (
          <Flex role="status" align="center" gap="3" color="fg.muted" py="4">
            <Spinner size="sm" color="brand.solid" aria-hidden="true" />
            <Text>Loading your connections...</Text>
          </Flex>
        )}
      </CardFrame>
    );
  }

  const usable = PROVIDERS.filter((provider) => connections[provider].connected);
  const known = PROVIDERS.filter((provider) => connections[provider].connected || connections[provider].needsReconnect);
  if (known.length === 0) {
    return (
      <CardFrame>
        <ConnectFirst />
      </CardFrame>
    );
  }

  const running = syncStatus?.active === true;
  const busy = sync.step !== 'idle' || running;
  return (
    <CardFrame>
      <Stack gap="6">
        <Stack gap="3">
          <Flex gap="3" wrap="wrap">
            <Button
              flexBasis={{ base: 'full', sm: 'auto' }}
              colorPalette="brand"
              onClick={() => void sync.syncAll()}
              loading={busy}
              loadingText="Syncing..."
              disabled={usable.length === 0 || !syncStatusKnown}
            >
              <LuRefreshCw aria-hidden="true" /> Sync All
            </Button>
            <MatchRunButton
              label="Match Orders"
              icon={<Icon as={LuGitCompareArrows} hideBelow="sm" aria-hidden="true" />}
              running={matchRun.running}
              onStart={() => void matchRun.start()}
              variant="outline"
              flex={{ base: '1', sm: 'initial' }}
            />
            <ButtonLink to="/orders" variant="outline" flex={{ base: '1', sm: 'initial' }}>
              <Icon as={LuReceipt} hideBelow="sm" aria-hidden="true" /> View All Orders
            </ButtonLink>
          </Flex>
        </Stack>

        <Stack gap="4" borderTopWidth="1px" borderColor="border.muted" pt="5">
          {PROVIDERS.map((provider) => {
            const connection = connections[provider];
            if (!connection.connected)
              return <UnusableProvider key={provider} provider={provider} needsReconnect={connection.needsReconnect} />;
            const problem = sync.problems[provider];
            return (
              <Stack key={provider} gap="1.5">
                <SyncRunProgress
                  provider={provider}
                  run={syncStatus?.[provider] ?? null}
                  lastSync={connection.lastSync}
                  showHeader
                  failureAction={
                    syncStatus?.[provider]?.errorCode === 'needs_reconnecting' ? (
                      <AppLink to="/connections" fontSize="sm" color="brand.fg" fontWeight="medium">
                        Reconnect {PROVIDER_LABEL[provider]}
                      </AppLink>
                    ) : undefined
                  }
                />
                {provider === 'printify' && <PrintifyShopLine shopTitle={connections.printify.shopTitle} />}
                {problem && <ProblemLine provider={provider} problem={problem} />}
              </Stack>
            );
          })}
        </Stack>

        <Counters metrics={metrics} />
      </Stack>
    </CardFrame>
  );
}
