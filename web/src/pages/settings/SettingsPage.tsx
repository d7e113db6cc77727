import { Stack } from '@chakra-ui/react';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePageTitle } from '../../hooks/usePageTitle';
import { DataManagementCard } from './components/DataManagementCard';
import { ProfitSettingsCard } from './components/ProfitSettingsCard';

/** Settings: the profit settings today; the spec's other cards (issue 19) go in this stack. */
export function SettingsPage() {
  usePageTitle('Settings');
  return (
    <PageContainer maxW="4xl">
      <PageHeader title="Settings" subtitle="How PodProfit figures your profit." />
      <Stack gap="6">
        <ProfitSettingsCard />
        <DataManagementCard />
      </Stack>
    </PageContainer>
  );
}
