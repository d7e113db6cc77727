import { Alert, Button, Field, Input, Stack } from '@chakra-ui/react';
import type { FormEvent } from 'react';
import { LuPackage, LuUnplug } from 'react-icons/lu';
import type { PrintifyConnectionStatus, SyncRunView } from '@pod/contracts';
import { SyncRunProgress } from '../../../components/sync/SyncRunProgress';
import { formatDate, formatDateTime } from '../messages';
import { DemoTokenCallout } from './DemoTokenCallout';
import { DetailRow, ServiceCard } from './ServiceCard';

interface PrintifyCardProps {
  printify: PrintifyConnectionStatus;
  /** The latest Printify sync run (GET /api/sync/status). */
  run: SyncRunView | null;
  token: string;
  onTokenChange: (token: string) => void;
  validating: boolean;
  onConnect: () => void;
  onDisconnect: () => void;
  /** Demo accounts only: offers the visitor's sandbox token above the token field. */
  onUseDemoToken?: (token: string) => void;
}

/** Printify's webhooks for the connection (null: this deployment has them off, and no row shows). */
const WEBHOOK_LABELS: Record<NonNullable<PrintifyConnectionStatus['webhookStatus']>, string> = {
  registered: 'On',
  pending: 'Setting up...',
  failed: 'Not available',
};

/** The fulfilment card: connected account, or the token field that starts the setup. */
export function PrintifyCard({
  printify,
  run,
  token,
  onTokenChange,
  validating,
  onConnect,
  onDisconnect,
  onUseDemoToken,
}: PrintifyCardProps) {
  const state = printify.connected ? 'connected' : printify.needsReconnect ? 'reconnect' : 'disconnected';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onConnect();
  };
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
  const tokenForm = (
    <form onSubmit={submit} noValidate aria-label="Connect Printify">
      <Stack gap="4">
        <Field.Root>
          <Field.Label>Printify API token</Field.Label>
          <Input
            type="password"
            name="printify-token"
            autoComplete="off"
            spellCheck={false}
            placeholder="Paste your personal access token"
            value={token}
            onChange={(e) => onTokenChange(e.target.value)}
            bg="bg.panel"
          />
          <Field.HelperText>Needs the scopes orders.read, shops.read and products.read.</Field.HelperText>
        </Field.Root>
        <Button
          type="submit"
          colorPalette="brand"
          loading={validating}
          loadingText="Checking token..."
          alignSelf={{ base: 'stretch', sm: 'flex-start' }}
        >
          Connect Printify
        </Button>
      </Stack>
    </form>
  );
  return (
    <ServiceCard
      id="printify"
      title="Printify"
      description="Your fulfilment account: production and shipping costs"
      icon={LuPackage}
      state={state}
    >
      {printify.connected ? (
        <Stack gap="4">
          <Stack gap="1.5">
            {printify.shopTitle && (
              <DetailRow
                label="Shop"
                value={printify.salesChannel ? `${printify.shopTitle} (${printify.salesChannel})` : printify.shopTitle}
                testId="printify-shop-title"
              />
            )}
            {printify.syncFrom && <DetailRow label="Orders from" value={formatDate(printify.syncFrom)} />}
            {printify.lastSync && (
              <DetailRow label="Last sync" value={formatDateTime(printify.lastSync)} testId="printify-last-sync" />
            )}
            {printify.webhookStatus && (
              <DetailRow
                label="Live updates"
                value={WEBHOOK_LABELS[printify.webhookStatus]}
                testId="printify-webhook-status"
              />
            )}
          </Stack>
          {printify.webhookStatus === 'failed' && (
            <Alert.Root status="info" borderRadius="md" data-testid="printify-webhook-failed">
              <Alert.Indicator />
              <Alert.Description>
                Printify could not be set up to notify us of order changes. Your orders still sync on schedule and when
                you press Sync; connect Printify again to retry.
              </Alert.Description>
            </Alert.Root>
          )}
          {run && <SyncRunProgress provider="printify" run={run} lastSync={printify.lastSync} />}
          {printify.tokenExpiresSoon && printify.tokenExpiresAt && (
            <Alert.Root status="warning" borderRadius="md">
              <Alert.Indicator />
              <Alert.Description>
                Your Printify token expires around {formatDate(printify.tokenExpiresAt.slice(0, 10))}. Create a new one
                in Printify and connect again before then.
              </Alert.Description>
            </Alert.Root>
          )}
          {disconnectButton}
        </Stack>
      ) : (
        <Stack gap="4">
          {printify.needsReconnect && (
            <Alert.Root status="warning" borderRadius="md">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>Printify no longer accepts your token</Alert.Title>
                <Alert.Description>
                  It may have expired or been revoked. Paste a new token to reconnect.
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          {onUseDemoToken && <DemoTokenCallout onUseToken={onUseDemoToken} checking={validating} />}
          {tokenForm}
          {printify.needsReconnect && disconnectButton}
        </Stack>
      )}
    </ServiceCard>
  );
}
