import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';

export interface DataAction {
  title: string;
  /** The spec's confirmation sentence(s). */
  message: string;
  confirmLabel: string;
  pendingLabel: string;
}

interface ConfirmDataActionDialogProps {
  /** The action being confirmed; null keeps the dialog closed. */
  action: DataAction | null;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}

/** Asked before Disconnect All and Delete All Data: nothing happens until the red button is pressed. */
export function ConfirmDataActionDialog({ action, onCancel, onConfirm }: ConfirmDataActionDialogProps) {
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog.Root
      role="alertdialog"
      open={action !== null}
      onOpenChange={(details) => !details.open && !pending && onCancel()}
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{action?.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">{action?.message}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={pending}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                onClick={() => void confirm()}
                loading={pending}
                loadingText={action?.pendingLabel}
              >
                {action?.confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
