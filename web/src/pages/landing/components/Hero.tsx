import { Badge, Box, Container, Heading, SimpleGrid, Stack, Text, Flex } from '@chakra-ui/react';
import { LuArrowRight } from 'react-icons/lu';
import { ProfitPreview } from './ProfitPreview';
import { ButtonLink } from '../../../components/ui/button-link';
import { TryDemoButton } from './TryDemoButton';

export function Hero() {
  return (
    <Box as="section" aria-labelledby="hero-title" bg="bg.hero" color="heroFg" position="relative" overflow="hidden">
      <Box
        position="absolute"
        inset="0"
        bgGradient="to-br"
        gradientFrom="brand.800/50"
        gradientVia="transparent"
        gradientTo="transparent"
        pointerEvents="none"
        aria-hidden="true"
      />
      <Container maxW="6xl" py={{ base: '14', md: '24' }} position="relative">
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap={{ base: '12', lg: '16' }} alignItems="center">
          <Stack gap="6">
            <Badge
              alignSelf="flex-start"
              variant="outline"
              color="heroFg.accent"
              borderColor="heroFg.accent"
              px="3"
              py="1"
              borderRadius="full"
            >
              For Etsy sellers who fulfil with Printify
            </Badge>
            <Heading
              id="hero-title"
              as="h1"
              fontSize={{ base: '4xl', md: '5xl', xl: '6xl' }}
              css={{ textWrap: 'balance' }}
              lineHeight="1.05"
              letterSpacing="-0.03em"
              fontWeight="bold"
            >
              See what every order{' '}
              <Box as="span" color="heroFg.accent">
                really earns you
              </Box>
            </Heading>
            <Text fontSize={{ base: 'md', md: 'lg' }} color="heroFg.muted" maxW="xl" css={{ textWrap: 'pretty' }}>
              PodProfit pulls your Etsy orders and Printify costs together, matches them automatically and shows your
              revenue, costs, fees, net profit and margin in the currency you think in.
            </Text>
            <Flex gap="3" wrap="wrap" align="center">
              <ButtonLink to="/signup" size="xl" colorPalette="brand" focusRingColor="heroFg.accent">
                Get Started Free <LuArrowRight />
              </ButtonLink>
              <TryDemoButton
                size="xl"
                variant="outline"
                color="heroFg"
                borderColor="heroFg.muted"
                _hover={{ bg: 'whiteAlpha.200' }}
                focusRingColor="heroFg.accent"
              />
            </Flex>
          </Stack>
          <Flex justify={{ base: 'center', lg: 'flex-end' }}>
            <ProfitPreview />
          </Flex>
        </SimpleGrid>
      </Container>
    </Box>
  );
}
