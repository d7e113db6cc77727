import { Alert, Badge, Box, Card, Flex, Heading, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import type { MoneyView, PayoutExplanationView, PayoutLineView, PayoutView } from '@pod/contracts';
import { formatMoney, formatOrderDate } from '../../../components/money/format';

export const money = (value: MoneyView | null) => (value ? formatMoney(value) : '-');

/** The reconciliation's verdict: 0.00 when our sum and Etsy's deposit agree, else by how much they do not. */
function Verdict({ payout }: { payout: PayoutView }) {
  if (payout.reconciled === null) {
    return (
      <Badge colorPalette="gray" variant="subtle">
        Cannot check
      </Badge>
    );
  }
  return payout.reconciled ? (
    <Badge colorPalette="green" variant="subtle" data-testid="payout-verdict">
      Reconciled: difference {money(payout.difference)}
    </Badge>
  ) : (
    <Badge colorPalette="red" variant="solid" data-testid="payout-verdict">
      Off by {money(payout.difference)}
    </Badge>
  );
}

export function Figure({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack gap="0.5" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontVariantNumeric="tabular-nums" fontWeight={strong ? 'semibold' : 'normal'} whiteSpace="nowrap">
        {value}
      </Text>
    </Stack>
  );
}

/** One line (sales, fees…) that opens to its entries. A native <details>: keyboard and screen readers get it for free. */
export function LineDetails({ line }: { line: PayoutLineView }) {
  return (
    <Box
      as="details"
      borderTopWidth="1px"
      borderColor="border.muted"
      py="2"
      data-testid={`payout-line-${line.line}`}
      css={{ '&[open] .line-chevron': { transform: 'rotate(90deg)' } }}
    >
      <Flex as="summary" cursor="pointer" justify="space-between" gap="3" fontSize="sm" listStyleType="none">
        <Text>
          <Text as="span" className="line-chevron" display="inline-block" color="fg.muted" me="1.5" aria-hidden="true">
            ›
          </Text>
          {line.label}{' '}
          <Text as="span" color="fg.muted">
            ({line.entries} {line.entries === 1 ? 'entry' : 'entries'})
          </Text>
        </Text>
        <Text fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
          {formatMoney(line.sum)}
        </Text>
      </Flex>
      <Box overflowX="auto" mt="2">
        <Table.Root size="sm" variant="line">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Date</Table.ColumnHeader>
              <Table.ColumnHeader>Ledger type</Table.ColumnHeader>
              <Table.ColumnHeader>Receipt</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">Etsy balance</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {line.items.map((item) => (
              <Table.Row key={item.entryId}>
                <Table.Cell whiteSpace="nowrap">{formatOrderDate(item.date)}</Table.Cell>
                <Table.Cell>{item.ledgerType}</Table.Cell>
                <Table.Cell>{item.receiptId ?? '-'}</Table.Cell>
                <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                  {formatMoney(item.amount)}
                </Table.Cell>
                <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                  {money(item.balance)}
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
    </Box>
  );
}

/** The entries that explain a difference (never hidden). */
export function Explanations({ explanations }: { explanations: PayoutExplanationView[] }) {
  if (explanations.length === 0) return null;
  return (
    <Alert.Root status="warning" borderRadius="md" data-testid="payout-explanations">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>Where our sum and Etsy’s balance part</Alert.Title>
        <Stack as="ul" gap="1" mt="1" ps="4">
          {explanations.map((explanation) => (
            <Text as="li" key={`${explanation.entryId}-${explanation.kind}`} fontSize="sm">
              {formatOrderDate(explanation.date)}, {explanation.ledgerType} (entry {explanation.entryId}):{' '}
              {explanation.message}
            </Text>
          ))}
        </Stack>
      </Alert.Content>
    </Alert.Root>
  );
}

/** One Etsy deposit: what it covers since the previous one, our sum against Etsy's, and why they differ if they do. */
export function PayoutCard({ payout }: { payout: PayoutView }) {
  return (
    <Card.Root borderRadius="xl" boxShadow="xs" data-testid="payout-card">
      <Card.Body gap="4" px={{ base: '4', sm: '6' }}>
        <Flex justify="space-between" align={{ base: 'flex-start', sm: 'center' }} gap="2" wrap="wrap">
          <Stack gap="0">
            <Heading as="h2" size="md">
              Deposit of {formatMoney(payout.amount)}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {formatOrderDate(payout.date)}
              {payout.displayAmount && (
                <Text as="span" data-testid="payout-display-amount">
                  {' '}
                  · ≈ {formatMoney(payout.displayAmount.amount)} at that day’s ECB rate
                  {payout.displayAmount.provisional ? ' (provisional)' : ''}
                </Text>
              )}
            </Text>
          </Stack>
          <Verdict payout={payout} />
        </Flex>
        <SimpleGrid columns={{ base: 2, md: 5 }} gap="3">
          <Figure label="Carried over" value={money(payout.openingBalance)} />
          <Figure label="Our sum" value={money(payout.ourSum)} strong />
          <Figure label="Etsy paid" value={formatMoney(payout.amount)} strong />
          <Figure label="Left in account" value={money(payout.leftInAccount)} />
          <Figure label="Difference" value={money(payout.difference)} strong />
        </SimpleGrid>
        <Explanations explanations={payout.explanations} />
        <Stack gap="0">
          <Text fontSize="sm" fontWeight="medium" pb="1">
            What it covers since the previous deposit
          </Text>
          {payout.lines.length === 0 ? (
            <Text fontSize="sm" color="fg.muted">
              No entries between this deposit and the previous one.
            </Text>
          ) : (
            payout.lines.map((line) => <LineDetails key={line.line} line={line} />)
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
