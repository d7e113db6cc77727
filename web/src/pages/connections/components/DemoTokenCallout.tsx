import { Alert, Button, Clipboard, Flex, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuCheck, LuCopy } from 'react-icons/lu';
import { ApiError } from '../../../hooks/api/client';
import { useDemoSandbox } from '../../../hooks/api/useDemo';

const TRANSLATIONS = {
  triggerLabel: (copied: boolean) => (copied ? 'Copied sandbox Printify token' : 'Copy sandbox Printify token'),
};

/**
 * Demo mode only: the visitor's own sandbox Printify token, to paste into the token field
 * and reconnect Printify through the real setup dialog.
 */
export function DemoTokenCallout() {
  const { sandbox, error, isLoading } = useDemoSandbox(true);
  return (
    <Alert.Root status="info" borderRadius="md" alignItems="flex-start" data-testid="demo-token-callout">
      <Alert.Indicator />
      <Alert.Content gap="2" minW="0" flex="1">
        <Alert.Title>Demo: use your sandbox Printify token</Alert.Title>
        {isLoading || (!sandbox && !error) ? (
          <Stack gap="2" aria-busy="true">
            <Text fontSize="sm">Loading your sandbox token...</Text>
            <Skeleton h="9" borderRadius="md" />
          </Stack>
        ) : error instanceof ApiError && error.status === 410 ? (
          // The sandbox removed this demo's seller (idle, or to make room): the demo is over.
          <Alert.Description data-testid="demo-ended">{error.serverMessage ?? 'Your demo has ended. Start the demo again from the home page.'}</Alert.Description>
        ) : error || !sandbox ? (
          <Alert.Description>Your sandbox token could not be loaded. Reload the page to try again.</Alert.Description>
        ) : (
          <>
            <Alert.Description>
              Your sandbox seller <Text as="strong" data-testid="demo-shop-name">{sandbox.shopName}</Text> has its own
              Printify account. Copy its token, paste it into the field below and click &quot;Connect Printify&quot;.
            </Alert.Description>
            <Clipboard.Root value={sandbox.printifyToken} translations={TRANSLATIONS} timeout={2500}>
              <Clipboard.Label srOnly>Sandbox Printify token</Clipboard.Label>
              <Flex gap="2" direction={{ base: 'column', sm: 'row' }}>
                <Clipboard.Input asChild>
                  <Input size="sm" fontFamily="mono" fontSize="xs" bg="bg.panel" flex={{ base: 'none', sm: '1' }} minW="0" data-testid="demo-printify-token" />
                </Clipboard.Input>
                <Clipboard.Trigger asChild>
                  <Button size="sm" variant="outline" bg="bg.panel" flexShrink={0}>
                    <Clipboard.Indicator copied={<LuCheck aria-hidden="true" />}>
                      <LuCopy aria-hidden="true" />
                    </Clipboard.Indicator>
                    <Clipboard.Indicator copied="Copied">Copy</Clipboard.Indicator>
                  </Button>
                </Clipboard.Trigger>
              </Flex>
            </Clipboard.Root>
          </>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}
