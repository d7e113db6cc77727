import { Badge, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { UnpaidView } from '@pod/contracts';
import { formatOrderDate } from '../../../components/money/format';
import { Explanations, Figure, LineDetails, money } from './PayoutCard';

/**
 * Money not paid out yet in one shop's payment account (docs/adr/0027): the entries since the
 * last deposit by line, checked as a deposit is: what was carried over plus every entry since
 * must be the balance Etsy reports now.
 */
export function UnpaidCard({ unpaid, shopCount }: { unpaid: UnpaidView; shopCount: number }) {
  const entries = unpaid.lines.reduce((sum, line) => sum + line.entries, 0);
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" borderStyle="dashed" data-testid="unpaid-card">
      <Card.Body gap="4" px={{ base: '4', sm: '6' }}>
        <Flex justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="2" wrap="wrap">
          <Stack gap="0">
            <Heading as="h2" size="md">
              Not yet paid out: {money(unpaid.balanceNow)}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {unpaid.sinceDeposit ? `Since the deposit of ${formatOrderDate(unpaid.sinceDeposit)}` : 'No deposit yet'}
              {shopCount > 1 ? `, shop ${unpaid.shopId}` : ''}: {entries} {entries === 1 ? 'entry' : 'entries'}
            </Text>
          </Stack>
          {unpaid.reconciled === null ? (
            <Badge colorPalette="gray" variant="subtle">
              Cannot check
            </Badge>
          ) : unpaid.reconciled ? (
            <Badge colorPalette="green" variant="subtle" data-testid="unpaid-verdict">
              Reconciled: difference {money(unpaid.difference)}
            </Badge>
          ) : (
            <Badge colorPalette="red" variant="solid" data-testid="unpaid-verdict">
              Off by {money(unpaid.difference)}
            </Badge>
          )}
        </Flex>
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
          <Figure label="Carried over" value={money(unpaid.openingBalance)} />
          <Figure label="Our sum" value={money(unpaid.ourSum)} strong />
          <Figure label="Etsy balance now" value={money(unpaid.balanceNow)} strong />
          <Figure label="Difference" value={money(unpaid.difference)} strong />
        </SimpleGrid>
        <Explanations explanations={unpaid.explanations} />
        <Stack gap="0">
          <Text fontSize="sm" fontWeight="medium" pb="1">
            Since the last deposit
          </Text>
          {unpaid.lines.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              Nothing has reached your payment account since the last deposit.
            </Text>
          ) : (
            unpaid.lines.map((line) => <LineDetails key={line.line} line={line} />)
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
