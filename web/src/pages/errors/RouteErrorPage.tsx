import { Box, Button, Card, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { useRouteError } from 'react-router-dom';

/** Last resort when a page throws while rendering: a plain, self-contained screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <Box as="main" minH="100dvh" bg="bg.canvas">
      <Center px="4" py="20">
        <Card.Root w="full" maxW="md" textAlign="center" borderRadius="xl">
          <Card.Body py="10">
            <Stack gap="4" align="center">
              <Heading as="h1" size="2xl">
                Something went wrong
              </Heading>
              <Text color="fg.muted">An unexpected error stopped this page. Reloading usually helps.</Text>
              <Button colorPalette="brand" onClick={() => window.location.assign('/')}>
                Reload PodProfit
              </Button>
            </Stack>
          </Card.Body>
        </Card.Root>
      </Center>
    </Box>
  );
}
