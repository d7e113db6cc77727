import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useAuthActions } from '../../../hooks/useAuthActions';
import { SettingsCard } from './SettingsCard';

/** Session Management: the sidebar's Logout, with its toasts ("Logged out successfully" / "Failed to logout"). */
export function SessionManagementCard() {
  const { logout } = useAuthActions();
  const [pending, setPending] = useState(false);
  const onLogout = async () => {
    setPending(true);
    try {
      await logout();
    } finally {
      setPending(false);
    }
  };
  return (
    <SettingsCard title="Session Management" testId="session-management-card">
      <Stack direction={{ base: 'column', sm: 'row' }} gap="4" justify="space-between" align={{ sm: 'center' }}>
        <Text color="fg.muted" fontSize="sm">
          Sign out of PodProfit in this browser.
        </Text>
        <Button variant="outline" onClick={() => void onLogout()} loading={pending} loadingText="Logging out">
          Logout
        </Button>
      </Stack>
    </SettingsCard>
  );
}
