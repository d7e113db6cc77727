import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import { LuExternalLink, LuStore, LuUnplug } from 'react-icons/lu';
import type { EtsyConnectionStatus, SyncRunView } from '@pod/contracts';
import { SyncRunProgress } from '../../../components/sync/SyncRunProgress';
import { formatDateTime } from '../messages';
import { DetailRow, ServiceCard } from './ServiceCard';

interface EtsyCardProps {
  etsy: EtsyConnectionStatus;
  /** The latest Etsy sync run (GET /api/sync/status). */
  run: SyncRunView | null;
  connecting: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
}

/** The marketplace card: connected shop, or the button that starts Etsy's OAuth redirect. */
export function EtsyCard({ etsy, run, connecting, onConnect, onDisconnect }: EtsyCardProps) {
  const state = etsy.connected ? 'connected' : etsy.needsReconnect ? 'reconnect' : 'disconnected';
  const connectButton = (
    <Button
      colorPalette="brand"
      onClick={onConnect}
      loading={connecting}
      loadingText="Connecting..."
      alignSelf={{ base: 'stretch', sm: 'flex-start' }}
    >
      <LuExternalLink aria-hidden="true" /> {etsy.needsReconnect ? 'Reconnect Etsy' : 'Connect Etsy'}
    </Button>
  );
  const disconnectButton = (
    <Button
      variant="outline"
      colorPalette="red"
      onClick={onDisconnect}
      alignSelf={{ base: 'stretch', sm: 'flex-start' }}
    >
      <LuUnplug aria-hidden="true" /> Disconnect
    </Button>
  );
  return (
    <ServiceCard
      id="etsy"
      title="Etsy"
      description="Your marketplace shop: orders, fees and payments"
      icon={LuStore}
      state={state}
    >
      {etsy.connected ? (
        <Stack gap="4">
          <Stack gap="1.5">
            <DetailRow label="Shop" value={etsy.shopName ?? 'Unnamed shop'} testId="etsy-shop-name" />
            {etsy.lastSync && (
              <DetailRow label="Last sync" value={formatDateTime(etsy.lastSync)} testId="etsy-last-sync" />
            )}
          </Stack>
          {run && <SyncRunProgress provider="etsy" run={run} lastSync={etsy.lastSync} />}
          {disconnectButton}
        </Stack>
      ) : etsy.needsReconnect ? (
        <Stack gap="4">
          <Alert.Root status="warning" borderRadius="md">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Etsy needs you to reconnect</Alert.Title>
              <Alert.Description>
                Etsy no longer accepts PodProfit's access to {etsy.shopName ?? 'your shop'} (for example after a
                password change). Reconnect to keep syncing.
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
            {connectButton}
            {disconnectButton}
          </Stack>
        </Stack>
      ) : (
        <Stack gap="4">
          <Text fontSize="sm" color="fg.muted">
            You will be redirected to Etsy to authorize PodProfit to read your shop's orders. You come back here when
            you are done.
          </Text>
          {connectButton}
        </Stack>
      )}
    </ServiceCard>
  );
}
