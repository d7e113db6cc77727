import { Button, Dialog, Portal } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';

interface FormDialogProps {
  open: boolean;
  title: string;
  /** While true the dialog cannot be dismissed and its buttons wait. */
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  submitDisabled?: boolean;
  onCancel: () => void;
  /** Called on the form's submit (the button, or Enter in a field). */
  onSubmit: () => void;
  children: ReactNode;
}

/**
 * A centred dialog holding one form, with Cancel and a submit button: Escape, the backdrop and
 * Cancel close it unless it is busy. The Printify setup and shop-choice dialogs share it.
 */
export function FormDialog({
  open,
  title,
  busy,
  submitLabel,
  busyLabel,
  submitDisabled = false,
  onCancel,
  onSubmit,
  children,
}: FormDialogProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => {
        if (!details.open && !busy) onCancel();
      }}
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <form onSubmit={submit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>{children}</Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onCancel} disabled={busy}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  colorPalette="brand"
                  disabled={submitDisabled || busy}
                  loading={busy}
                  loadingText={busyLabel}
                >
                  {submitLabel}
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
