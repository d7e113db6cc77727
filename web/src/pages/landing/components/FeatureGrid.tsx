import { Box, Card, Center, Container, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuChartLine, LuCoins, LuGitCompareArrows, LuRefreshCw, LuShieldCheck, LuTrendingUp } from 'react-icons/lu';

interface Feature {
  title: string;
  description: string;
  icon: IconType;
}

export const FEATURES: Feature[] = [
  {
    title: 'Automatic Syncing',
    description:
      'Orders from your Etsy shop and your Printify account arrive on their own, with a nightly resync so nothing slips through.',
    icon: LuRefreshCw,
  },
  {
    title: 'Smart Matching',
    description:
      'Each Etsy receipt is paired with its Printify order by receipt number, buyer, date and items. You confirm the rest in a click.',
    icon: LuGitCompareArrows,
  },
  {
    title: 'Profit Analysis',
    description:
      'Revenue, production and shipping costs, Etsy fees, net profit and margin for every order and for your whole shop.',
    icon: LuTrendingUp,
  },
  {
    title: 'Multi-Currency',
    description:
      'See every figure in USD, EUR or GBP, converted with historical exchange rates from the date of each order.',
    icon: LuCoins,
  },
  {
    title: 'Analytics Dashboard',
    description: 'Follow profit, revenue, costs and margin over time, and find the products that actually pay.',
    icon: LuChartLine,
  },
  {
    title: 'Secure & Private',
    description:
      'API tokens are encrypted at rest, your data is visible only to you, and you can export or delete it at any time.',
    icon: LuShieldCheck,
  },
];

export function FeatureGrid() {
  return (
    <Box as="section" aria-labelledby="features-title" py={{ base: '14', md: '24' }}>
      <Container maxW="6xl">
        <Stack gap="3" textAlign="center" maxW="2xl" mx="auto" mb={{ base: '10', md: '14' }}>
          <Text color="brand.fg" fontWeight="semibold" fontSize="sm" textTransform="uppercase" letterSpacing="wider">
            Features
          </Text>
          <Heading
            id="features-title"
            as="h2"
            fontSize={{ base: '3xl', md: '4xl' }}
            letterSpacing="-0.02em"
            lineHeight="1.2"
            css={{ textWrap: 'balance' }}
          >
            Everything you need to trust your margins
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            Stop stitching spreadsheets together. PodProfit does the bookkeeping between Etsy and Printify for you.
          </Text>
        </Stack>
        <SimpleGrid as="ul" listStyleType="none" columns={{ base: 1, md: 2, lg: 3 }} gap="6">
          {FEATURES.map((feature) => (
            <Card.Root
              as="li"
              key={feature.title}
              borderRadius="xl"
              boxShadow="xs"
              _hover={{ boxShadow: 'md' }}
              transition="box-shadow 0.2s"
            >
              <Card.Body gap="3">
                <Center boxSize="11" borderRadius="lg" bg="brand.subtle" color="brand.fg">
                  <Icon as={feature.icon} boxSize="5" aria-hidden="true" />
                </Center>
                <Heading as="h3" size="md">
                  {feature.title}
                </Heading>
                <Text color="fg.muted" fontSize="sm">
                  {feature.description}
                </Text>
              </Card.Body>
            </Card.Root>
          ))}
        </SimpleGrid>
      </Container>
    </Box>
  );
}
