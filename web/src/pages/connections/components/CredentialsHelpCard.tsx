import { Card, Heading, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';

const ETSY_STEPS = [
  'Open the Etsy developer console (Your apps) and create an app, or select the one you use for PodProfit.',
  'Add PodProfit\'s callback as a redirect URI of the app.',
  'Come back here and click "Connect Etsy", then allow access on Etsy\'s page.',
];

const PRINTIFY_STEPS = [
  'In Printify, open Settings, then API (My Profile → Connections).',
  'Generate a personal access token with the scopes orders.read, shops.read and products.read.',
  'Copy the token (Printify shows it only once), paste it above and click "Connect Printify".',
];

function Steps({ steps }: { steps: string[] }) {
  return (
    <List.Root as="ol" gap="2" ps="5" fontSize="sm" color="fg.muted">
      {steps.map((step) => (
        <List.Item key={step}>{step}</List.Item>
      ))}
    </List.Root>
  );
}

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
