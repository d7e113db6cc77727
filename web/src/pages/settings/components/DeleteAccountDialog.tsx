import { Alert, Button, Dialog, Field, Input, Portal, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../hooks/api/client';

interface DeleteAccountDialogProps {
  open: boolean;
  /** A demo account has no password its visitor knows: none is asked. */
  isDemo: boolean;
  onCancel: () => void;
  /** Deletes the account; throws with the server's message when it refuses (a wrong password). */
  onConfirm: (password: string | undefined) => Promise<void>;
}

/** Delete Account: the password re-entered, then everything of the account goes. */
export function DeleteAccountDialog({ open, isDemo, onCancel, onConfirm }: DeleteAccountDialogProps) {
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const close = () => {
    if (pending) return;
    setPassword('');
    setProblem(null);
    onCancel();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!isDemo && password.length === 0) {
      setProblem('Please enter your password');
      return;
    }
    setPending(true);
    setProblem(null);
    try {
      await onConfirm(isDemo ? undefined : password);
    } catch (error) {
      setProblem(errorMessage(error, 'Failed to delete account'));
      setPending(false);
    }
  };

  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(details) => !details.open && close()}
      placement="center"
      size={{ base: 'xs', sm: 'md' }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <form onSubmit={(event) => void submit(event)} noValidate>
              <Dialog.Header>
                <Dialog.Title>Delete your account?</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="4">
                  <Text color="fg.muted">
                    This cannot be undone. Your account, your Etsy and Printify connections and all synced orders,
                    matches and profit figures will be permanently deleted, and you will be signed out everywhere.
                  </Text>
                  {isDemo ? null : (
                    <Field.Root invalid={problem !== null} required>
                      <Field.Label>Password</Field.Label>
                      <Input
                        type="password"
                        autoComplete="current-password"
                        value={password}
                        onChange={(event) => setPassword(event.target.value)}
                        disabled={pending}
                      />
                      <Field.HelperText>Enter your password to confirm.</Field.HelperText>
                    </Field.Root>
                  )}
                  {problem ? (
                    <Alert.Root status="error" role="alert">
                      <Alert.Indicator />
                      <Alert.Title>{problem}</Alert.Title>
                    </Alert.Root>
                  ) : null}
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={close} disabled={pending}>
                  Cancel
                </Button>
                <Button type="submit" colorPalette="red" loading={pending} loadingText="Deleting...">
                  Delete account
                </Button>
              </Dialog.Footer>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
