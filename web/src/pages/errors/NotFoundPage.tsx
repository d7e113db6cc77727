import { Card, Center, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { LuCompass } from 'react-icons/lu';
import { usePageTitle } from '../../hooks/usePageTitle';
import { ButtonLink } from '../../components/ui/button-link';

/** The not-found card for any path outside the active route set. */
export function NotFoundPage() {
  usePageTitle('Page Not Found');
  return (
    <Center flex="1" px="4" py={{ base: '10', md: '20' }}>
      <Card.Root w="full" maxW="md" textAlign="center" borderRadius="xl" boxShadow="sm" data-testid="not-found">
        <Card.Body py="10">
          <Stack gap="4" align="center">
            <Center boxSize="14" borderRadius="full" bg="brand.subtle" color="brand.fg">
              <Icon as={LuCompass} boxSize="7" aria-hidden="true" />
            </Center>
            <Text fontSize="sm" fontWeight="semibold" color="brand.fg" letterSpacing="wider">
              404
            </Text>
            <Heading as="h1" size="2xl">
              Page Not Found
            </Heading>
            <Text color="fg.muted">The page you are looking for doesn&apos;t exist or has moved.</Text>
            <ButtonLink to="/" colorPalette="brand" mt="2">
              Go back home
            </ButtonLink>
          </Stack>
        </Card.Body>
      </Card.Root>
    </Center>
  );
}
