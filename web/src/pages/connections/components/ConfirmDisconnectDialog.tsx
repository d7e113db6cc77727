import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';

interface ConfirmDisconnectDialogProps {
  service: 'Etsy' | 'Printify' | null;
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}

/** "Disconnect Etsy?": asked before a connection and its stored tokens are removed. */
export function ConfirmDisconnectDialog({ service, onCancel, onConfirm }: ConfirmDisconnectDialogProps) {
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
      open={service !== null}
      onOpenChange={(details) => !details.open && !pending && onCancel()}
      placement="center"
      size={{ base: 'xs', sm: 'sm' }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Disconnect {service}?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">
                Are you sure you want to disconnect {service}? PodProfit will stop syncing its orders and delete the
                stored access
                {service === 'Etsy' ? ' tokens' : ' token'}. Orders already synced stay.
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={pending}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                onClick={() => void confirm()}
                loading={pending}
                loadingText="Disconnecting..."
              >
                Disconnect
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
