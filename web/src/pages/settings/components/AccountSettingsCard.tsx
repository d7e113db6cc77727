import { Alert, Separator, Stack } from '@chakra-ui/react';
import { useCurrentUser } from '../../../hooks/api/useCurrentUser';
import { ChangeEmailForm } from './ChangeEmailForm';
import { ChangePasswordForm } from './ChangePasswordForm';
import { SettingsCard } from './SettingsCard';

/** Account Settings: the email (changeable with the current password) and Change Password. */
export function AccountSettingsCard() {
  const { user, mutate } = useCurrentUser();
  if (!user) return null; // the shell renders only for a signed-in user
  const isDemo = user.isDemo;
  return (
    <SettingsCard
      title="Account Settings"
      description="Your sign-in email and password. Changing either signs you out everywhere else."
      testId="account-settings-card"
    >
      <Stack gap="6">
        {isDemo && (
          <Alert.Root status="info" borderRadius="md" data-testid="demo-credentials-note">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">
              This is a demo account: its email and password cannot be changed. Create a free account to keep your own.
            </Alert.Title>
          </Alert.Root>
        )}
        <ChangeEmailForm
          email={user.email}
          disabled={isDemo}
          onChanged={(email) => void mutate({ ...user, email }, { revalidate: false })}
        />
        <Separator />
        <ChangePasswordForm disabled={isDemo} />
      </Stack>
    </SettingsCard>
  );
}
