import { Button, Field, Input, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { FormField } from '../../../components/FormField';
import { toaster } from '../../../components/ui/toaster';
import { changeEmail } from '../../../hooks/api/accountSettings';
import { errorMessage } from '../../../hooks/api/client';
import { PasswordField } from './PasswordField';

/** The same shape the server's IsEmail accepts in practice: something@domain.tld, no spaces. */
const EMAIL_FORMAT = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Problem = { field: 'email' | 'currentPassword'; message: string } | null;

/**
 * The account's email, and Change Email (Part 2 point 12): a new email and the current password.
 * On success the server has ended the seller's other sessions; this one stays signed in.
 */
export function ChangeEmailForm({
  email,
  disabled = false,
  onChanged,
}: {
  email: string;
  disabled?: boolean;
  onChanged: (email: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [problem, setProblem] = useState<Problem>(null);
  const [saving, setSaving] = useState(false);

  const close = () => {
    setOpen(false);
    setNewEmail('');
    setCurrentPassword('');
    setProblem(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    const trimmed = newEmail.trim();
    const local: Problem = !trimmed
      ? { field: 'email', message: 'Please enter your new email' }
      : !EMAIL_FORMAT.test(trimmed)
        ? { field: 'email', message: 'Please enter a valid email address' }
        : !currentPassword
          ? { field: 'currentPassword', message: 'Please enter your current password' }
          : null;
    setProblem(local);
    if (local) return;
    setSaving(true);
    try {
      const saved = await changeEmail(trimmed, currentPassword);
      close();
      onChanged(saved.email);
      toaster.success('Email changed successfully');
    } catch (failure) {
      const reason = errorMessage(failure, '');
      const field = (failure as { field?: string }).field;
      if (reason && (field === 'email' || field === 'currentPassword')) setProblem({ field, message: reason });
      toaster.error(reason ? `Failed to change email: ${reason}` : 'Failed to change email');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="4" maxW={{ md: 'md' }}>
      <Field.Root readOnly>
        <Field.Label>Email</Field.Label>
        <Input value={email} readOnly bg="bg.subtle" data-testid="account-email" />
      </Field.Root>
      {!open ? (
        <Button variant="outline" alignSelf="flex-start" onClick={() => setOpen(true)} disabled={disabled}>
          Change Email
        </Button>
      ) : (
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Change Email">
          <Stack gap="4">
            <FormField
              label="New email"
              type="email"
              autoComplete="email"
              value={newEmail}
              onChange={(event) => setNewEmail(event.target.value)}
              error={problem?.field === 'email' ? problem.message : undefined}
              disabled={saving}
              autoFocus
            />
            <PasswordField
              label="Current password"
              autoComplete="current-password"
              value={currentPassword}
              onValueChange={setCurrentPassword}
              error={problem?.field === 'currentPassword' ? problem.message : undefined}
              helperText="For your security, confirm it is you."
              disabled={saving}
            />
            <Stack direction="row" gap="3">
              <Button type="submit" colorPalette="brand" loading={saving} loadingText="Saving">
                Save Email
              </Button>
              <Button variant="ghost" onClick={close} disabled={saving}>
                Cancel
              </Button>
            </Stack>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
