import { Avatar, Button, Flex, IconButton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { LuLogOut } from 'react-icons/lu';
import type { PublicUser } from '@pod/contracts';
import { Tooltip } from '../../components/ui/tooltip';
import { useAuthActions } from '../../hooks/useAuthActions';
import { DEMO_NOTE, DemoBadge, DemoNote } from './DemoBadge';

export function displayName(user: PublicUser | null): string {
  const name = [user?.firstName, user?.lastName].filter((part) => part && part.trim()).join(' ');
  return name || 'User';
}

interface UserPanelProps {
  user: PublicUser | null;
  collapsed?: boolean;
}

/** Who is signed in, and the Logout action. */
export function UserPanel({ user, collapsed = false }: UserPanelProps) {
  const { logout } = useAuthActions();
  const [pending, setPending] = useState(false);
  const name = displayName(user);
  const email = user?.email ?? 'Loading...';
  const isDemo = user?.isDemo === true;

  const onLogout = async () => {
    setPending(true);
    try {
      await logout();
    } finally {
      setPending(false);
    }
  };

  const avatar = (
    <Avatar.Root size="sm" colorPalette="brand" variant="subtle" flexShrink={0}>
      <Avatar.Fallback name={name === 'User' ? undefined : name} />
    </Avatar.Root>
  );

  if (collapsed) {
    return (
      <Stack align="center" gap="2" data-testid="user-panel">
        {isDemo && <DemoBadge />}
        <Tooltip
          content={isDemo ? `${name} (${email}). ${DEMO_NOTE}` : `${name} (${email})`}
          positioning={{ placement: 'right' }}
        >
          <Flex
            role="img"
            borderRadius="full"
            aria-label={`Signed in as ${name}, ${email}${isDemo ? ' (demo account)' : ''}`}
          >
            {avatar}
          </Flex>
        </Tooltip>
        <Tooltip content="Logout" positioning={{ placement: 'right' }}>
          <IconButton aria-label="Logout" variant="ghost" size="sm" onClick={() => void onLogout()} loading={pending}>
            <LuLogOut />
          </IconButton>
        </Tooltip>
      </Stack>
    );
  }

  return (
    <Stack gap="3" data-testid="user-panel">
      <Flex align="center" gap="3" minW="0">
        {avatar}
        <Stack gap="0" minW="0">
          <Text fontSize="sm" fontWeight="semibold" truncate data-testid="user-name">
            {name}
          </Text>
          <Text fontSize="xs" color="fg.muted" truncate data-testid="user-email">
            {email}
          </Text>
        </Stack>
      </Flex>
      {isDemo && <DemoNote />}
      <Button
        variant="outline"
        size="sm"
        onClick={() => void onLogout()}
        loading={pending}
        loadingText="Logging out..."
      >
        <LuLogOut /> Logout
      </Button>
    </Stack>
  );
}
