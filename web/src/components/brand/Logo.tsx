import { Box, HStack, Text, type BoxProps } from '@chakra-ui/react';

/** The PodProfit mark: a rounded square with a rising line. Decorative (aria-hidden). */
export function LogoMark({ size = '8', ...rest }: { size?: BoxProps['boxSize'] } & BoxProps) {
  return (
    <Box
      as="span"
      display="inline-flex"
      alignItems="center"
      justifyContent="center"
      boxSize={size}
      flexShrink={0}
      borderRadius="lg"
      bgGradient="to-br"
      gradientFrom="brand.500"
      gradientTo="brand.800"
      color="white"
      aria-hidden="true"
      {...rest}
    >
      <svg
        viewBox="0 0 24 24"
        width="62%"
        height="62%"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M4 17l5-5 4 3 7-8" />
        <path d="M15 7h5v5" />
      </svg>
    </Box>
  );
}

/** Mark plus word mark. `inverted` for dark backgrounds. */
export function Logo({ hideWordmark = false, inverted = false }: { hideWordmark?: boolean; inverted?: boolean }) {
  return (
    <HStack gap="2.5">
      <LogoMark />
      {!hideWordmark && (
        <Text as="span" fontWeight="bold" fontSize="lg" letterSpacing="-0.02em" color={inverted ? 'heroFg' : 'fg'}>
          PodProfit
        </Text>
      )}
    </HStack>
  );
}
