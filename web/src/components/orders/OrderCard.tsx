import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * One order as a card on a phone, for the Orders and Order Matching lists: the product and its
 * detail lines beside a badge, then what the list shows below (figures, buttons).
 */
export function OrderCard({
  product,
  details,
  badge,
  children,
}: {
  product: string;
  details: ReactNode;
  badge: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box as="li" borderWidth="1px" borderColor="border.muted" borderRadius="lg" bg="bg.panel" p="4">
      <Flex justify="space-between" gap="3" align="flex-start">
        <Stack gap="0.5" minW="0">
          <Text fontWeight="semibold" truncate>
            {product}
          </Text>
          {details}
        </Stack>
        {badge}
      </Flex>
      {children}
    </Box>
  );
}
