import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';

/** What a confirmation asks, in the spec's words. */
export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
  /** The red button's text while the confirmed action runs. */
  pendingLabel: string;
}

interface ConfirmDialogProps {
  /** What is being confirmed; null keeps the dialog closed. */
  confirmation: Confirmation | null;
  /** The dialog's width from the `sm` breakpoint up (below it, always `xs`). */
  width?: 'sm' | 'md';
  onCancel: () => void;
  onConfirm: () => Promise<void>;
}

/**
 * Asked before something that cannot be undone (disconnecting a service, deleting data): nothing
 * happens until the red button is pressed, and while the action runs the dialog cannot be dismissed.
 */
export function ConfirmDialog({ confirmation, width = 'md', onCancel, onConfirm }: ConfirmDialogProps) {
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
      open={confirmation !== null}
      onOpenChange={(details) => !details.open && !pending && onCancel()}
      placement="center"
      size={{ base: 'xs', sm: width }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{confirmation?.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text color="fg.muted">{confirmation?.message}</Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={pending}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                onClick={() => void confirm()}
                loading={pending}
                loadingText={confirmation?.pendingLabel}
              >
                {confirmation?.confirmLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
