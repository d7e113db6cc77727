import { Stack } from '@chakra-ui/react';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AccountSettingsCard } from './components/AccountSettingsCard';
import { CurrencySettingsCard } from './components/CurrencySettingsCard';
import { DataManagementCard } from './components/DataManagementCard';
import { ProfitSettingsCard } from './components/ProfitSettingsCard';
import { SessionManagementCard } from './components/SessionManagementCard';

/** Settings (spec §2): Currency, Account, Profit settings, Data Management, Session. */
export function SettingsPage() {
  usePageTitle('Settings');
  return (
    <PageContainer maxW="4xl">
      <PageHeader title="Settings" subtitle="Your currency, account, profit settings, data and session." />
      <Stack gap="6">
        <CurrencySettingsCard />
        <AccountSettingsCard />
        <ProfitSettingsCard />
        <DataManagementCard />
        <SessionManagementCard />
      </Stack>
    </PageContainer>
  );
}
