import { Badge, Box, Flex, HStack, Separator, Stack, Text } from '@chakra-ui/react';

const rows = [
  { label: 'Order revenue', value: '$42.00' },
  { label: 'Printify production + shipping', value: '−$18.40' },
  { label: 'Etsy fees', value: '−$4.12', note: 'transaction, processing, listing' },
];

/** An illustrative order breakdown for the hero (static example data). */
export function ProfitPreview() {
  return (
    <Box
      as="figure"
      aria-label="Example order profit breakdown"
      bg="bg.panel"
      color="fg"
      borderRadius="2xl"
      boxShadow="2xl"
      p={{ base: '5', md: '6' }}
      w="full"
      maxW="420px"
    >
      <Flex justify="space-between" align="flex-start" gap="3">
        <Stack gap="0.5">
          <Text fontSize="xs" color="fg.muted" fontWeight="medium">
            Etsy #3049281 · Printify #A-77120
          </Text>
          <Text fontWeight="semibold">Retro Sunset Tee, size M</Text>
        </Stack>
        <Badge colorPalette="green" variant="subtle" flexShrink={0}>
          Auto-matched
        </Badge>
      </Flex>
      <Stack gap="3" mt="5" fontSize="sm">
        {rows.map((row) => (
          <Flex key={row.label} justify="space-between" gap="4">
            <Stack gap="0">
              <Text color="fg.muted">{row.label}</Text>
              {row.note && (
                <Text fontSize="xs" color="fg.muted">
                  {row.note}
                </Text>
              )}
            </Stack>
            <Text fontVariantNumeric="tabular-nums" fontWeight="medium">
              {row.value}
            </Text>
          </Flex>
        ))}
        <Separator />
        <Flex justify="space-between" align="center">
          <Text fontWeight="semibold">Net profit</Text>
          <HStack gap="2">
            <Badge colorPalette="brand" variant="subtle">
              46.4% margin
            </Badge>
            <Text fontSize="xl" fontWeight="bold" color="fg.success" fontVariantNumeric="tabular-nums">
              $19.48
            </Text>
          </HStack>
        </Flex>
      </Stack>
      <Text as="figcaption" fontSize="xs" color="fg.muted" mt="4">
        Example order. Figures convert to USD, EUR or GBP at the order date&apos;s rate.
      </Text>
    </Box>
  );
}
