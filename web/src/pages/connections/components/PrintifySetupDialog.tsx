import { Field, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { PrintifyShopView } from '@pod/contracts';
import { FormDialog } from '../../../components/ui/form-dialog';
import { localToday, MSG } from '../messages';

interface PrintifySetupDialogProps {
  shops: PrintifyShopView[] | null;
  shopId: string;
  onShopChange: (shopId: string) => void;
  syncFrom: string;
  onSyncFromChange: (date: string) => void;
  pending: boolean;
  onCancel: () => void;
  onComplete: () => void;
}

/** "Complete Printify Setup": choose the shop to sync and, optionally, the first order date. */
export function PrintifySetupDialog(props: PrintifySetupDialogProps) {
  const { shops, shopId, onShopChange, syncFrom, onSyncFromChange, pending, onCancel, onComplete } = props;
  const [shopTouched, setShopTouched] = useState(false);
  // Each opening (a new shop list) starts untouched.
  const [openedFor, setOpenedFor] = useState(shops);
  if (shops !== openedFor) {
    setOpenedFor(shops);
    setShopTouched(false);
  }
  const shopMissing = shopTouched && !shopId;
  const submit = () => {
    if (!shopId) {
      setShopTouched(true);
      return;
    }
    onComplete();
  };
  return (
    <FormDialog
      open={shops !== null}
      title="Complete Printify Setup"
      busy={pending}
      submitLabel="Complete Setup"
      busyLabel="Completing..."
      submitDisabled={!shopId}
      onCancel={onCancel}
      onSubmit={submit}
    >
      <Stack gap="5">
        <Text fontSize="sm" color="fg.muted">
          Your token works. Choose the Printify shop whose orders PodProfit should sync.
        </Text>
        <Field.Root required invalid={shopMissing}>
          <Field.Label>
            Shop <Field.RequiredIndicator />
          </Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="printify-shop"
              value={shopId}
              onChange={(e) => onShopChange(e.target.value)}
              onBlur={() => setShopTouched(true)}
              bg="bg.panel"
            >
              <option value="">Select a shop</option>
              {(shops ?? []).map((shop) => (
                <option key={String(shop.id)} value={String(shop.id)}>
                  {`${shop.title} (${shop.sales_channel})`}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          {shopMissing && <Field.ErrorText>{MSG.selectShop}</Field.ErrorText>}
        </Field.Root>
        <Field.Root>
          <Field.Label>Sync orders from (optional)</Field.Label>
          <Input
            type="date"
            name="sync-from"
            value={syncFrom}
            max={localToday()}
            onChange={(e) => onSyncFromChange(e.target.value)}
            bg="bg.panel"
          />
          <Field.HelperText>Leave empty to sync all orders.</Field.HelperText>
        </Field.Root>
      </Stack>
    </FormDialog>
  );
}
