import { Alert, Button, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuKeyRound } from 'react-icons/lu';
import { hasErrorCode } from '../../../hooks/api/client';
import { useDemoSandbox } from '../../../hooks/api/useDemo';

interface DemoTokenCalloutProps {
  /** Puts the token into the token field and checks it, as "Connect Printify" does. */
  onUseToken: (token: string) => void;
  checking: boolean;
}

/**
 * Demo accounts only: the visitor's own sandbox Printify token, one click away from the real
 * setup dialog (no copying between fields).
 */
export function DemoTokenCallout({ onUseToken, checking }: DemoTokenCalloutProps) {
  const { sandbox, error, isLoading } = useDemoSandbox(true);
  return (
    <Alert.Root status="info" borderRadius="md" alignItems="flex-start" data-testid="demo-token-callout">
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0" flex="1">
        <Alert.Title>Demo: use your sandbox Printify token</Alert.Title>
        {isLoading || (!sandbox && !error) ? (
          <Stack gap="2" aria-busy="true">
            <Text fontSize="sm">Loading your sandbox token...</Text>
            <Skeleton h="8" w="36" borderRadius="md" />
          </Stack>
        ) : hasErrorCode(error, 'demo_ended') ? (
          // The sandbox removed this demo's seller (idle, or to make room): the demo is over.
          <Alert.Description data-testid="demo-ended">
            {error.serverMessage ?? 'Your demo has ended. Start the demo again from the home page.'}
          </Alert.Description>
        ) : error || !sandbox ? (
          <Alert.Description>Your sandbox token could not be loaded. Reload the page to try again.</Alert.Description>
        ) : (
          <>
            <Alert.Description>
              Your sandbox seller{' '}
              <Text as="strong" data-testid="demo-shop-name">
                {sandbox.shopName}
              </Text>{' '}
              has its own Printify account. Use its token to connect Printify through the real setup.
            </Alert.Description>
            <Button
              size="sm"
              variant="outline"
              bg="bg.panel"
              alignSelf="flex-start"
              onClick={() => onUseToken(sandbox.printifyToken)}
              disabled={checking}
            >
              <LuKeyRound aria-hidden="true" /> Use this token
            </Button>
          </>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}
