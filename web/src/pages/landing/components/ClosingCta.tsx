import { Box, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { LuArrowRight } from 'react-icons/lu';
import { ButtonLink } from '../../../components/ui/button-link';

export function ClosingCta() {
  return (
    <Box as="section" aria-labelledby="cta-title" pb={{ base: '14', md: '24' }}>
      <Container maxW="6xl">
        <Stack
          align="center"
          textAlign="center"
          gap="5"
          bg="bg.hero"
          color="heroFg"
          borderRadius="2xl"
          px={{ base: '6', md: '16' }}
          py={{ base: '12', md: '16' }}
          bgGradient="to-br"
          gradientFrom="bg.hero"
          gradientTo="brand.900"
        >
          <Heading id="cta-title" as="h2" fontSize={{ base: '2xl', md: '4xl' }} letterSpacing="-0.02em">
            Ready to see what you really earn?
          </Heading>
          <Text color="heroFg.muted" maxW="xl" fontSize={{ base: 'md', md: 'lg' }}>
            Connect Etsy and Printify in a few minutes and get an honest profit figure for every order.
          </Text>
          <ButtonLink to="/signup" size="xl" colorPalette="brand" focusRingColor="heroFg.accent">
            Start Tracking Profits <LuArrowRight />
          </ButtonLink>
        </Stack>
      </Container>
    </Box>
  );
}
