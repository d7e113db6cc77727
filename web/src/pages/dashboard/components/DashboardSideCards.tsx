import { Badge, Card, Center, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuChartLine, LuChevronRight, LuLifeBuoy, LuPlug, LuReceipt, LuSettings } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { ButtonLink } from '../../../components/ui/button-link';
import { useHasAppPage } from '../../../layouts/appPages';

interface QuickLink {
  label: string;
  description: string;
  to: string;
  icon: IconType;
}

const QUICK_LINKS: QuickLink[] = [
  { label: 'All Orders', description: 'Every Etsy and Printify order with its profit', to: '/orders', icon: LuReceipt },
  { label: 'Connections', description: 'Connect or manage Etsy and Printify', to: '/connections', icon: LuPlug },
  {
    label: 'Analytics',
    description: 'Profit, costs and margin over time, by product',
    to: '/analytics',
    icon: LuChartLine,
  },
  // What /settings holds (issues 17 and 19).
  {
    label: 'Settings',
    description: 'Display currency, email and password, profit settings',
    to: '/settings',
    icon: LuSettings,
  },
];

function QuickLinkContent({ link }: { link: QuickLink }) {
  return (
    <>
      <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
        <Icon as={link.icon} boxSize="5" aria-hidden="true" />
      </Center>
      <Stack gap="0" flex="1" minW="0">
        <Text fontWeight="semibold">{link.label}</Text>
        <Text fontSize="sm" color="fg.muted" truncate>
          {link.description}
        </Text>
      </Stack>
    </>
  );
}

function QuickLinksCard() {
  const hasAppPage = useHasAppPage();
  return (
    <Card.Root borderRadius="xl" boxShadow="xs">
      <Card.Header>
        <Heading as="h2" size="lg">
          Quick Links
        </Heading>
      </Card.Header>
      <Card.Body pt="3">
        <Stack as="ul" listStyleType="none" gap="1">
          {QUICK_LINKS.map((link) => (
            <li key={link.to}>
              {hasAppPage(link.to) ? (
                <Flex
                  asChild
                  align="center"
                  gap="3"
                  p="3"
                  mx="-3"
                  borderRadius="lg"
                  _hover={{ bg: 'bg.muted' }}
                  focusRing="inside"
                >
                  <RouterLink to={link.to}>
                    <QuickLinkContent link={link} />
                    <Icon as={LuChevronRight} color="fg.muted" aria-hidden="true" />
                  </RouterLink>
                </Flex>
              ) : (
                // Not built yet: say so instead of linking to the not-found card.
                <Flex
                  align="center"
                  gap="3"
                  p="3"
                  mx="-3"
                  aria-disabled="true"
                  data-testid={`quick-link-soon-${link.to.slice(1)}`}
                >
                  <QuickLinkContent link={link} />
                  <Badge size="sm" variant="subtle" colorPalette="gray">
                    Coming soon
                  </Badge>
                </Flex>
              )}
            </li>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function NeedHelpCard() {
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" bg="brand.subtle" borderColor="brand.border">
      <Card.Body gap="4">
        <Center boxSize="10" borderRadius="lg" bg="bg.panel" color="brand.fg">
          <Icon as={LuLifeBuoy} boxSize="5" aria-hidden="true" />
        </Center>
        <Stack gap="1">
          <Heading as="h2" size="lg">
            Need Help?
          </Heading>
          <Text color="fg.muted" fontSize="sm">
            Questions about syncing, matching or your numbers? Our support team usually answers within one business day.
          </Text>
        </Stack>
        <ButtonLink to="/contact" colorPalette="brand" alignSelf="flex-start">
          Contact support
        </ButtonLink>
      </Card.Body>
    </Card.Root>
  );
}

/** The dashboard's right column from xl: Quick Links and the "Need Help" card; side by side below the sync card between md and xl. */
export function DashboardSideCards() {
  return (
    <SimpleGrid columns={{ base: 1, md: 2, xl: 1 }} gap="6" alignItems="start">
      <QuickLinksCard />
      <NeedHelpCard />
    </SimpleGrid>
  );
}
