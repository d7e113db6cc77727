import { Card, Center, Flex, Heading, Icon, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { IconType } from 'react-icons';
import { LuChevronRight, LuLifeBuoy, LuPlug, LuReceipt, LuSettings } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePageTitle } from '../../hooks/usePageTitle';
import { ButtonLink } from '../../components/ui/button-link';
import { useConnectionsStatus } from '../../hooks/api/useConnections';
import { useSyncStatus } from '../../hooks/api/useSyncStatus';
import { SyncMatchCard } from './components/SyncMatchCard';

interface QuickLink {
  label: string;
  description: string;
  to: string;
  icon: IconType;
}

const QUICK_LINKS: QuickLink[] = [
  { label: 'All Orders', description: 'Every Etsy and Printify order with its profit', to: '/orders', icon: LuReceipt },
  { label: 'Connections', description: 'Connect or manage Etsy and Printify', to: '/connections', icon: LuPlug },
  { label: 'Settings', description: 'Display currency, account and data', to: '/settings', icon: LuSettings },
];

function QuickLinksCard() {
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
                  <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink={0}>
                    <Icon as={link.icon} boxSize="5" aria-hidden="true" />
                  </Center>
                  <Stack gap="0" flex="1" minW="0">
                    <Text fontWeight="semibold">{link.label}</Text>
                    <Text fontSize="sm" color="fg.muted" truncate>
                      {link.description}
                    </Text>
                  </Stack>
                  <Icon as={LuChevronRight} color="fg.muted" aria-hidden="true" />
                </RouterLink>
              </Flex>
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
        <ButtonLink to="/contact" colorPalette="brand" alignSelf="flex-start">Contact support</ButtonLink>
      </Card.Body>
    </Card.Root>
  );
}

export function DashboardPage() {
  usePageTitle('Dashboard');
  const { status: connections, error: connectionsError, reload: reloadConnections } = useConnectionsStatus();
  const { syncStatus, error: syncStatusError } = useSyncStatus();
  return (
    <PageContainer>
      <PageHeader title="Dashboard" subtitle="Track your Print-on-Demand business performance" />
      <SimpleGrid columns={{ base: 1, lg: 3 }} gap="6" alignItems="start">
        <Stack gridColumn={{ lg: 'span 2' }} gap="6">
          <SyncMatchCard
            connections={connections}
            connectionsError={connectionsError}
            onRetryConnections={() => void reloadConnections()}
            syncStatus={syncStatus}
            syncStatusKnown={syncStatus !== undefined || syncStatusError !== undefined}
          />
          <QuickLinksCard />
        </Stack>
        <NeedHelpCard />
      </SimpleGrid>
    </PageContainer>
  );
}
