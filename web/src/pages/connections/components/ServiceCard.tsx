import { Badge, Card, Center, Flex, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { IconType } from 'react-icons';

export type BadgeState = 'connected' | 'disconnected' | 'reconnect';

const BADGES: Record<BadgeState, { label: string; palette: string }> = {
  connected: { label: 'Connected', palette: 'green' },
  disconnected: { label: 'Disconnected', palette: 'gray' },
  reconnect: { label: 'Reconnect needed', palette: 'orange' },
};

interface ServiceCardProps {
  id: string;
  title: string;
  description: string;
  icon: IconType;
  state: BadgeState;
  children: ReactNode;
}

/** One service's card: icon, name, what it is for, its status badge, then its body. */
export function ServiceCard({ id, title, description, icon, state, children }: ServiceCardProps) {
  const badge = BADGES[state];
  const headingId = `${id}-heading`;
  return (
    <Card.Root
      as="section"
      aria-labelledby={headingId}
      borderRadius="xl"
      boxShadow="xs"
      h="full"
      data-testid={`${id}-card`}
    >
      <Card.Header>
        <Flex align="flex-start" gap="3">
          <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
            <Icon as={icon} boxSize="5" aria-hidden="true" />
          </Center>
          <Stack gap="0.5" flex="1" minW="0">
            <Flex align="center" justify="space-between" gap="2" wrap="wrap">
              <Heading as="h2" size="lg" id={headingId}>
                {title}
              </Heading>
              <Badge colorPalette={badge.palette} variant="subtle" size="md" data-testid={`${id}-badge`}>
                {badge.label}
              </Badge>
            </Flex>
            <Text fontSize="sm" color="fg.muted">
              {description}
            </Text>
          </Stack>
        </Flex>
      </Card.Header>
      <Card.Body pt="4">{children}</Card.Body>
    </Card.Root>
  );
}

/** A label/value line inside a card ("Shop", "Last sync"). */
export function DetailRow({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Flex gap="2" fontSize="sm" wrap="wrap">
      <Text as="span" color="fg.muted" minW="24">
        {label}
      </Text>
      <Text as="span" fontWeight="medium" data-testid={testId} wordBreak="break-word">
        {value}
      </Text>
    </Flex>
  );
}
