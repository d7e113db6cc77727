import { Card, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { LoadError } from '../../components/orders/LoadError';
import { Pager, useKeepPageInRange } from '../../components/orders/Pager';
import { PAYOUTS_PAGE_SIZE, usePayouts } from '../../hooks/api/usePayouts';
import { usePageTitle } from '../../hooks/usePageTitle';
import { PayoutCard } from './components/PayoutCard';
import { UnpaidCard } from './components/UnpaidCard';

/**
 * Each Etsy deposit reconciled to the cent (docs/adr/0027): what it covers since the previous
 * one by line, our sum against Etsy's amount, and the entries that explain any difference.
 * Above them (first page), per shop, the money not paid out yet, checked the same way. Amounts
 * are in the payment account's currency, as Etsy's ledger keeps them.
 */
export function PayoutsPage() {
  usePageTitle('Payouts');
  const [page, setPage] = useState(1);
  const { payouts, error, isLoading, reload } = usePayouts(page);
  const pageCount = payouts ? Math.max(1, Math.ceil(payouts.total / PAYOUTS_PAGE_SIZE)) : null;
  useKeepPageInRange(page, pageCount, setPage);
  const unpaid =
    payouts && page === 1
      ? payouts.unpaid.map((shop) => <UnpaidCard key={shop.shopId} unpaid={shop} shopCount={payouts.unpaid.length} />)
      : null;
  return (
    <PageContainer>
      <PageHeader
        title="Payouts"
        subtitle="Every Etsy deposit checked against your ledger, to the cent, in your payment account's currency"
      />
      {error && !payouts ? (
        <LoadError title="Your payouts could not be loaded" error={error} onRetry={() => void reload()} />
      ) : !payouts ? (
        <Stack gap="4" aria-busy="true" data-testid="payout-skeletons">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} h="12rem" borderRadius="xl" />
          ))}
        </Stack>
      ) : payouts.total === 0 ? (
        <Stack gap="4">
          {unpaid}
          <Card.Root borderRadius="xl" boxShadow="xs" data-testid="no-payouts">
            <Card.Body gap="1">
              <Heading as="h2" size="md">
                No deposits yet
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                Once your Etsy ledger is synced, each deposit Etsy makes to your bank shows here with the sales, fees,
                refunds and shop costs it covers.
              </Text>
            </Card.Body>
          </Card.Root>
        </Stack>
      ) : (
        <Stack gap="4">
          {unpaid}
          {payouts.payouts.map((payout) => (
            <PayoutCard key={payout.id} payout={payout} />
          ))}
          <Pager
            page={page}
            pageCount={pageCount ?? 1}
            summary={`${payouts.total.toLocaleString('en-US')} ${payouts.total === 1 ? 'deposit' : 'deposits'}`}
            onPage={setPage}
            busy={isLoading}
            label="Payouts pages"
          />
        </Stack>
      )}
    </PageContainer>
  );
}
