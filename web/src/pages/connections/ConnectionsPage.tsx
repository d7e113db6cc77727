import { Alert, Button, Center, SimpleGrid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useCallback, useState } from 'react';
import type { PrintifyShopView } from '@pod/contracts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { toaster } from '../../components/ui/toaster';
import { errorMessage, hasErrorCode } from '../../hooks/api/client';
import {
  connectPrintify,
  disconnectService,
  startEtsyConnection,
  useConnectionsStatus,
  validatePrintifyToken,
} from '../../hooks/api/useConnections';
import { useCurrentUser } from '../../hooks/api/useCurrentUser';
import { refreshSyncStatus, useSyncStatus } from '../../hooks/api/useSyncStatus';
import { usePageTitle } from '../../hooks/usePageTitle';
import { CredentialsHelpCard } from './components/CredentialsHelpCard';
import { EtsyCard } from './components/EtsyCard';
import { PrintifyCard } from './components/PrintifyCard';
import { PrintifySetupDialog } from './components/PrintifySetupDialog';
import { disconnectConfirmation, MSG } from './messages';
import { preselectedShopId, shopsForChoice } from './printifyShops';
import { useEtsyReturnToast } from './useEtsyReturnToast';

type ServiceName = 'Etsy' | 'Printify';

/** Sends the browser to Etsy's consent page (a full navigation, leaving the app). */
export function goToAuthorization(url: string) {
  window.location.assign(url);
}

export function ConnectionsPage() {
  usePageTitle('API Connections');
  const { status, error, isLoading, reload } = useConnectionsStatus();
  const { user } = useCurrentUser();
  const { syncStatus } = useSyncStatus();
  const [etsyConnecting, setEtsyConnecting] = useState(false);
  const [token, setToken] = useState('');
  const [validating, setValidating] = useState(false);
  const [shops, setShops] = useState<PrintifyShopView[] | null>(null);
  const [shopId, setShopId] = useState('');
  const [syncFrom, setSyncFrom] = useState('');
  const [completing, setCompleting] = useState(false);
  const [confirming, setConfirming] = useState<ServiceName | null>(null);

  // Connected: the first syncs may have started too.
  useEtsyReturnToast(useCallback(() => void Promise.all([reload(), refreshSyncStatus()]), [reload]));

  const connectEtsy = async () => {
    setEtsyConnecting(true);
    try {
      const { authUrl } = await startEtsyConnection();
      goToAuthorization(authUrl);
      // Stay "Connecting..." while the browser leaves.
    } catch {
      toaster.error(MSG.etsyInitFailed);
      setEtsyConnecting(false);
    }
  };

  const checkPrintifyToken = async (candidate = token) => {
    const trimmed = candidate.trim();
    if (!trimmed) {
      toaster.error(MSG.emptyToken);
      return;
    }
    setValidating(true);
    try {
      const result = await validatePrintifyToken(trimmed);
      if (result.shops.length === 0) {
        toaster.error(MSG.invalidToken);
        return;
      }
      // The dialog says the token works: an earlier "invalid token" toast must not stay up.
      toaster.dismiss();
      setShopId(preselectedShopId(result.shops, status?.etsy));
      setSyncFrom('');
      setShops(shopsForChoice(result.shops));
    } catch (caught) {
      // A refused token (by its shape or by Printify) reads the spec's words; other failures carry the server's own (e.g. Printify is down).
      const refused = hasErrorCode(caught, 'printify_token_invalid', 'validation_failed');
      toaster.error(refused ? MSG.invalidToken : errorMessage(caught, MSG.invalidToken));
    } finally {
      setValidating(false);
    }
  };

  const completePrintifySetup = async () => {
    if (!shopId) {
      toaster.error(MSG.selectShop);
      return;
    }
    setCompleting(true);
    try {
      await connectPrintify({ token: token.trim(), shopId, ...(syncFrom ? { syncFromDate: syncFrom } : {}) });
      setToken('');
      setShopId('');
      setSyncFrom('');
      setShops(null);
      toaster.success(MSG.printifyConnected);
    } catch (caught) {
      // The seller can fix these two in the dialog; anything else is the spec's generic failure.
      const fixable = hasErrorCode(caught, 'printify_shop_required', 'sync_from_date_invalid');
      toaster.error(fixable ? errorMessage(caught, MSG.printifyConnectFailed) : MSG.printifyConnectFailed);
    } finally {
      setCompleting(false);
    }
  };

  const disconnect = async () => {
    const service = confirming;
    if (!service) return;
    try {
      await disconnectService(service === 'Etsy' ? 'etsy' : 'printify');
      toaster.success(MSG.disconnected(service));
    } catch {
      toaster.error(MSG.disconnectFailed);
    } finally {
      setConfirming(null);
    }
  };

  return (
    <PageContainer>
      <PageHeader
        title="API Connections"
        subtitle="Connect your Etsy shop and your Printify account to sync orders and costs."
      />
      {isLoading || (!status && !error) ? (
        <Center py="16" role="status" aria-live="polite">
          <Stack align="center" gap="3">
            <Spinner color="brand.solid" size="lg" aria-hidden="true" />
            <Text color="fg.muted">{MSG.loading}</Text>
          </Stack>
        </Center>
      ) : error || !status ? (
        <Alert.Root status="error" borderRadius="md">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>Connections could not be loaded</Alert.Title>
            <Alert.Description>Please try again in a moment.</Alert.Description>
          </Alert.Content>
          <Button size="sm" variant="outline" onClick={() => void reload()}>
            Try again
          </Button>
        </Alert.Root>
      ) : (
        <Stack gap="6">
          {status.mode === 'sandbox' && (
            <Alert.Root status="info" borderRadius="md" data-testid="sandbox-note">
              <Alert.Indicator />
              <Alert.Description>
                Demo mode: Etsy and Printify are PodProfit's built-in sandbox, not the real services.
              </Alert.Description>
            </Alert.Root>
          )}
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="stretch">
            <EtsyCard
              etsy={status.etsy}
              run={syncStatus?.etsy ?? null}
              connecting={etsyConnecting}
              onConnect={() => void connectEtsy()}
              onDisconnect={() => setConfirming('Etsy')}
            />
            <PrintifyCard
              printify={status.printify}
              run={syncStatus?.printify ?? null}
              token={token}
              onTokenChange={setToken}
              validating={validating}
              onConnect={() => void checkPrintifyToken()}
              onDisconnect={() => setConfirming('Printify')}
              onUseDemoToken={
                status.mode === 'sandbox' && user?.isDemo
                  ? (demoToken) => {
                      setToken(demoToken);
                      void checkPrintifyToken(demoToken);
                    }
                  : undefined
              }
            />
          </SimpleGrid>
          <CredentialsHelpCard />
        </Stack>
      )}
      <PrintifySetupDialog
        shops={shops}
        shopId={shopId}
        onShopChange={setShopId}
        syncFrom={syncFrom}
        onSyncFromChange={setSyncFrom}
        pending={completing}
        onCancel={() => setShops(null)}
        onComplete={() => void completePrintifySetup()}
      />
      <ConfirmDialog
        confirmation={confirming && disconnectConfirmation(confirming)}
        width="sm"
        onCancel={() => setConfirming(null)}
        onConfirm={disconnect}
      />
    </PageContainer>
  );
}
