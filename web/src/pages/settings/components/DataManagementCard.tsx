import { Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { ConfirmDialog, type Confirmation } from '../../../components/ConfirmDialog';
import { toaster } from '../../../components/ui/toaster';
import { apiRequest } from '../../../hooks/api/client';
import { API } from '../../../hooks/api/keys';
import { useCurrentUser } from '../../../hooks/api/useCurrentUser';
import { useExportCsv } from '../../../hooks/api/useExportCsv';
import { SIGN_OUT_NAVIGATION } from '../../../hooks/signOutNavigation';
import { useDisplayCurrency } from '../../../hooks/useDisplayCurrency';
import { DeleteAccountDialog } from './DeleteAccountDialog';

const DELETE_ALL_PATH = '/api/orders/delete-all';
const DELETE_ACCOUNT_PATH = '/api/user/delete';

/** The spec's confirmations (§8). */
const DISCONNECT_ALL: Confirmation = {
  title: 'Disconnect all services?',
  message: 'Are you sure you want to disconnect all services? This will remove all API connections.',
  confirmLabel: 'Disconnect All',
  pendingLabel: 'Disconnecting...',
};
const DELETE_ALL_DATA: Confirmation = {
  title: 'Delete all data?',
  message:
    'This cannot be undone. All Etsy orders, Printify orders and order matches will be permanently deleted. Your account and connections stay.',
  confirmLabel: 'Delete All Data',
  pendingLabel: 'Deleting...',
};

type Pending = 'disconnect' | 'delete-data' | null;

/** Settings → Data Management (issue 19): Disconnect All, Export CSV, Delete All Data, Delete Account. */
export function DataManagementCard() {
  const currency = useDisplayCurrency();
  const { exportCsv, exporting } = useExportCsv();
  const { user } = useCurrentUser();
  const { mutate } = useSWRConfig();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<Pending>(null);
  const [deletingAccount, setDeletingAccount] = useState(false);

  // Spec §7: after delete-all and disconnect-all every query is fetched again.
  const refetchEverything = () =>
    mutate((key) => key !== API.currentUser && key !== API.publicConfig, undefined, { revalidate: true });

  const runConfirmed = async () => {
    const action = confirming;
    try {
      if (action === 'disconnect') await apiRequest('DELETE', API.disconnectAll);
      else {
        const answer = await apiRequest<{ ok?: boolean }>('DELETE', DELETE_ALL_PATH);
        if (answer?.ok !== true) throw new Error('not ok');
      }
    } catch {
      toaster.error(action === 'disconnect' ? 'Failed to disconnect services' : 'Failed to delete order data');
      return;
    }
    setConfirming(null);
    toaster.success(
      action === 'disconnect' ? 'All services disconnected successfully' : 'All order data deleted successfully',
    );
    await refetchEverything();
  };

  const deleteAccount = async (password: string | undefined) => {
    await apiRequest('POST', DELETE_ACCOUNT_PATH, password === undefined ? {} : { password });
    setDeletingAccount(false);
    await navigate('/', { flushSync: true, state: SIGN_OUT_NAVIGATION });
    await mutate(API.currentUser, null, { revalidate: false });
    await mutate((key) => key !== API.currentUser && key !== API.publicConfig, undefined, { revalidate: false });
    toaster.success('Your account has been deleted');
  };

  return (
    <Card.Root
      as="section"
      aria-labelledby="data-management-heading"
      borderRadius="xl"
      boxShadow="xs"
      data-testid="data-management-card"
    >
      <Card.Header>
        <Heading as="h2" size="lg" id="data-management-heading">
          Data Management
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          Export, remove or disconnect your data.
        </Text>
      </Card.Header>
      <Card.Body>
        <Stack gap="5" separator={<Stack borderBottomWidth="1px" borderColor="border.muted" />}>
          <DataRow
            title="Disconnect All"
            description="Remove the Etsy and Printify connections and their stored tokens. Synced orders stay."
          >
            <Button variant="outline" onClick={() => setConfirming('disconnect')}>
              Disconnect All
            </Button>
          </DataRow>
          <DataRow title="Export CSV" description={`Download every order with its profit figures in ${currency}.`}>
            {/* Fetched, not linked: a refusal (an export already running) is a toast, not a downloaded error page. */}
            <Button
              variant="outline"
              loading={exporting}
              loadingText="Exporting..."
              onClick={() =>
                void exportCsv({ search: '', status: 'all', days: undefined, source: 'all', view: 'active', currency })
              }
            >
              Export CSV
            </Button>
          </DataRow>
          <DataRow
            title="Delete All Data"
            description="Permanently delete every synced order, match and profit figure. Your account and connections stay."
          >
            <Button colorPalette="red" variant="outline" onClick={() => setConfirming('delete-data')}>
              Delete All Data
            </Button>
          </DataRow>
          <DataRow
            title="Delete Account"
            description="Permanently delete your account and everything in it, and sign out everywhere."
          >
            <Button colorPalette="red" onClick={() => setDeletingAccount(true)}>
              Delete Account
            </Button>
          </DataRow>
        </Stack>
      </Card.Body>
      <ConfirmDialog
        confirmation={
          confirming === 'disconnect' ? DISCONNECT_ALL : confirming === 'delete-data' ? DELETE_ALL_DATA : null
        }
        onCancel={() => setConfirming(null)}
        onConfirm={runConfirmed}
      />
      <DeleteAccountDialog
        open={deletingAccount}
        isDemo={user?.isDemo ?? false}
        onCancel={() => setDeletingAccount(false)}
        onConfirm={deleteAccount}
      />
    </Card.Root>
  );
}

function DataRow({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Stack direction={{ base: 'column', sm: 'row' }} gap="3" justify="space-between" align={{ sm: 'center' }}>
      <Stack gap="0.5" maxW="xl">
        <Heading as="h3" size="sm">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {description}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}
