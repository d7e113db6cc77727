import { Stack } from '@chakra-ui/react';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AccountSettingsCard } from './components/AccountSettingsCard';
import { CurrencySettingsCard } from './components/CurrencySettingsCard';
import { ProfitSettingsCard } from './components/ProfitSettingsCard';
import { SessionManagementCard } from './components/SessionManagementCard';

/** Settings (spec §2): the cards in this order, the Data Management card between Profit settings and Session. */
export function SettingsPage() {
  usePageTitle('Settings');
  return (
    <PageContainer maxW="4xl">
      <PageHeader title="Settings" subtitle="Your currency, account, profit settings and session." />
      <Stack gap="6">
        <CurrencySettingsCard />
        <AccountSettingsCard />
        <ProfitSettingsCard />
        {/* Data Management (DataManagementCard, issue 19) goes here. */}
        <SessionManagementCard />
      </Stack>
    </PageContainer>
  );
}
