import { Field, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { PrintifyShopView } from '@pod/contracts';
import { FormDialog } from '../../../components/ui/form-dialog';

interface SelectPrintifyShopDialogProps {
  /** The account's shops; null keeps the dialog closed. */
  shops: PrintifyShopView[] | null;
  shopId: string;
  /** The shop the connection syncs now (GET /api/connections/status), marked in the list. */
  connectedShopId: string | null;
  onShopChange: (shopId: string) => void;
  syncing: boolean;
  onCancel: () => void;
  onSync: () => void;
}

/**
 * "Select Printify Shop" (spec §2, §4): Sync All's Printify step when the account has more than
 * one shop. Sync Orders stays disabled until a shop is chosen and while the sync is starting.
 */
export function SelectPrintifyShopDialog({
  shops,
  shopId,
  connectedShopId,
  onShopChange,
  syncing,
  onCancel,
  onSync,
}: SelectPrintifyShopDialogProps) {
  const switching = shopId !== '' && connectedShopId !== null && shopId !== connectedShopId;
  return (
    <FormDialog
      open={shops !== null}
      title="Select Printify Shop"
      busy={syncing}
      submitLabel="Sync Orders"
      busyLabel="Syncing..."
      submitDisabled={!shopId}
      onCancel={onCancel}
      onSubmit={onSync}
    >
      <Stack gap="4">
        <Text fontSize="sm" color="fg.muted">
          Your Printify account has more than one shop. Choose the shop whose orders to sync.
        </Text>
        <Field.Root required>
          <Field.Label>
            Printify shop <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root disabled={syncing}>
            <NativeSelect.Field
              name="sync-printify-shop"
              value={shopId}
              onChange={(e) => onShopChange(e.target.value)}
              bg="bg.panel"
            >
              <option value="">Select a shop</option>
              {(shops ?? []).map((shop) => (
                <option key={String(shop.id)} value={String(shop.id)}>
                  {String(shop.id) === connectedShopId ? `${shop.title} (connected)` : shop.title}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>
            {switching
              ? 'PodProfit will sync this shop from now on, instead of the one connected now.'
              : 'The shop you connected on the Connections page is marked “connected”.'}
          </Field.HelperText>
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}
