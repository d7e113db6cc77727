import { Badge, Flex, Icon, Text, type BadgeProps } from '@chakra-ui/react';
import { LuFlaskConical } from 'react-icons/lu';

export const DEMO_NOTE = 'Demo account — sample data from the PodProfit sandbox; removed after 24 hours.';

/** "Demo", shown next to the logo (and in the collapsed sidebar) for a Try-the-demo account. */
export function DemoBadge(props: BadgeProps) {
  return (
    <Badge colorPalette="orange" variant="subtle" size="sm" fontWeight="semibold" data-testid="demo-badge" {...props}>
      Demo
    </Badge>
  );
}

/** The one-line explanation under the signed-in user. */
export function DemoNote() {
  return (
    <Flex
      gap="2"
      align="flex-start"
      px="2.5"
      py="2"
      borderRadius="md"
      bg="orange.subtle"
      color="orange.fg"
      fontSize="xs"
      lineHeight="short"
      data-testid="demo-note"
    >
      <Icon as={LuFlaskConical} boxSize="3.5" mt="0.5" flexShrink={0} aria-hidden="true" />
      <Text>{DEMO_NOTE}</Text>
    </Flex>
  );
}
