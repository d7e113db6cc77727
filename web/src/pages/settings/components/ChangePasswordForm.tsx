import { Button, Heading, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { toaster } from '../../../components/ui/toaster';
import { changePassword } from '../../../hooks/api/accountSettings';
import { errorMessage } from '../../../hooks/api/client';
import { PasswordField } from './PasswordField';

/** Spec §9: 8 characters when changing the password (6 at sign-up). */
export const MIN_NEW_PASSWORD_LENGTH = 8;

type FieldError = { field: 'confirm' | 'new' | 'current'; message: string } | null;

/** What is wrong with the new password before asking the server, in the spec's order (§5): match first, then length. */
export function newPasswordProblem(newPassword: string, confirmPassword: string): FieldError {
  if (newPassword !== confirmPassword) return { field: 'confirm', message: 'New passwords do not match' };
  if (newPassword.length < MIN_NEW_PASSWORD_LENGTH)
    return { field: 'new', message: `Password must be at least ${MIN_NEW_PASSWORD_LENGTH} characters long` };
  return null;
}

/**
 * Change Password (spec §2, §5, §8): Change stays disabled until all three fields are filled;
 * problems show as the "Error" toast and under their field. On success the fields are cleared
 * and the server has ended the seller's other sessions.
 */
export function ChangePasswordForm({ disabled = false }: { disabled?: boolean }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [problem, setProblem] = useState<FieldError>(null);
  const [saving, setSaving] = useState(false);
  const filled = currentPassword !== '' && newPassword !== '' && confirmPassword !== '';

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!filled || saving || disabled) return;
    const local = newPasswordProblem(newPassword, confirmPassword);
    setProblem(local);
    if (local) {
      toaster.error(local.message);
      return;
    }
    setSaving(true);
    try {
      await changePassword(currentPassword, newPassword);
      setCurrentPassword('');
      setNewPassword('');
      setConfirmPassword('');
      toaster.success('Password changed successfully');
    } catch (failure) {
      const reason = errorMessage(failure, '');
      if (reason && fieldOf(failure) === 'currentPassword') setProblem({ field: 'current', message: reason });
      toaster.error(reason ? `Failed to change password: ${reason}` : 'Failed to change password');
    } finally {
      setSaving(false);
    }
  };

  const errorOf = (field: 'confirm' | 'new' | 'current') => (problem?.field === field ? problem.message : undefined);

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate aria-labelledby="change-password-heading">
      <Stack gap="4" maxW={{ md: 'md' }}>
        <Heading as="h3" size="md" id="change-password-heading">
          Change Password
        </Heading>
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={currentPassword}
          onValueChange={setCurrentPassword}
          error={errorOf('current')}
          disabled={disabled || saving}
        />
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={newPassword}
          onValueChange={setNewPassword}
          error={errorOf('new')}
          helperText={`At least ${MIN_NEW_PASSWORD_LENGTH} characters.`}
          disabled={disabled || saving}
        />
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={confirmPassword}
          onValueChange={setConfirmPassword}
          error={errorOf('confirm')}
          disabled={disabled || saving}
        />
        <Button
          type="submit"
          colorPalette="brand"
          alignSelf="flex-start"
          disabled={!filled || disabled}
          loading={saving}
          loadingText="Changing"
        >
          Change
        </Button>
      </Stack>
    </form>
  );
}

function fieldOf(error: unknown): string | undefined {
  return (error as { field?: string } | null)?.field;
}
