import { Card, Code, Heading, List, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { usePublicConfig } from '../../../hooks/api/usePublicConfig';

const PRINTIFY_STEPS = [
  'In Printify, open Settings, then API (My Profile → Connections).',
  'Generate a personal access token with the scopes orders.read, shops.read and products.read.',
  'Copy the token (Printify shows it only once), paste it above and click "Connect Printify".',
];

function Steps({ steps }: { steps: ReactNode[] }) {
  return (
    <List.Root as="ol" gap="2" ps="5" fontSize="sm" color="fg.muted">
      {steps.map((step, index) => (
        <List.Item key={index}>{step}</List.Item>
      ))}
    </List.Root>
  );
}

/** The exact callback URL this server sends to Etsy (from its configuration). */
function RedirectUri() {
  const { config } = usePublicConfig();
  if (!config) return <Skeleton as="span" display="block" h="5" mt="1" w="full" />;
  return (
    <Code
      display="block"
      mt="1"
      px="2"
      py="1"
      fontSize="xs"
      wordBreak="break-all"
      whiteSpace="normal"
      data-testid="etsy-redirect-uri"
    >
      {config.etsyRedirectUri}
    </Code>
  );
}

const ETSY_STEPS: ReactNode[] = [
  'Open the Etsy developer console (Your apps) and create an app, or select the one you use for PodProfit.',
  <>
    Add this exact redirect URI to the app:
    <RedirectUri />
  </>,
  'Come back here and click "Connect Etsy", then allow access on Etsy\'s page.',
];

/** "How to get your API credentials": both providers' steps. */
export function CredentialsHelpCard() {
  return (
    <Card.Root as="section" aria-labelledby="credentials-help-heading" borderRadius="xl" boxShadow="xs">
      <Card.Header>
        <Heading as="h2" size="lg" id="credentials-help-heading">
          How to get your API credentials
        </Heading>
      </Card.Header>
      <Card.Body pt="4">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="6">
          <Stack gap="2">
            <Heading as="h3" size="sm">
              Etsy
            </Heading>
            <Steps steps={ETSY_STEPS} />
          </Stack>
          <Stack gap="2">
            <Heading as="h3" size="sm">
              Printify
            </Heading>
            <Steps steps={PRINTIFY_STEPS} />
            <Text fontSize="xs" color="fg.muted">
              Required scopes: orders.read, shops.read, products.read.
            </Text>
          </Stack>
        </SimpleGrid>
      </Card.Body>
    </Card.Root>
  );
}
