import { Badge, Box, Flex, Heading, Separator, Stack, Text } from '@chakra-ui/react';
import type { FigureSource, MoneyView, OrderDetailsResponse, OrderRowView, ProfitLineView } from '@pod/contracts';
import { formatCalendarDate, formatMoney, formatPercent } from '../../../components/money/format';
import { FIGURES_TEXT, MoneyText } from '../../../components/money/MoneyText';

type Profit = NonNullable<OrderDetailsResponse['profit']>;

const METHOD_LABEL = { exact: 'Automatic (exact)', fuzzy: 'Automatic (fuzzy)', manual: 'Manual' } as const;

/** Where each figure comes from (Part 2 §4: every figure says where it came from). */
export const SOURCE_LABEL: Record<FigureSource, string> = {
  receipt: 'From the Etsy receipt',
  payment: 'From the Etsy payment',
  ledger: 'From the Etsy ledger',
  printify: 'From Printify',
  estimate: 'Estimated from the fee schedule',
};

/** The amount as received, when it is not already the shown one ("€10.00 → $10.84" reads as a conversion). */
function originalNote(amount: MoneyView | null, original: MoneyView): string | null {
  if (amount && amount.currency === original.currency) return null;
  return `${formatMoney(original)} ${original.currency}`;
}

function Line({ line }: { line: ProfitLineView }) {
  const original = originalNote(line.amount, line.original);
  return (
    <Flex as="li" justify="space-between" gap="3" align="flex-start" fontSize="sm">
      <Stack gap="0" minW="0">
        <Flex gap="2" align="center" wrap="wrap">
          <Text>{line.label}</Text>
          {line.estimated && (
            <Badge size="xs" colorPalette="orange" variant="subtle">
              estimated
            </Badge>
          )}
        </Flex>
        <Text fontSize="xs" color="fg.muted" data-testid="profit-line-source">
          {SOURCE_LABEL[line.source]}
          {original && ` · Original: ${original}`}
        </Text>
      </Stack>
      <MoneyText value={line.amount} figures={line.amount ? 'ok' : 'rate_unavailable'} />
    </Flex>
  );
}

function Lines({ title, lines }: { title: string; lines: ProfitLineView[] }) {
  return (
    <Stack gap="2">
      <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
        {title}
      </Text>
      {lines.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          None
        </Text>
      ) : (
        <Stack as="ul" listStyleType="none" gap="2">
          {lines.map((line, index) => (
            <Line key={`${line.kind}-${index}`} line={line} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/**
 * Why the figures may still change: the day whose rates were used, the day awaited and when it
 * comes. A day already past was published but not loaded yet (rate loading is late).
 */
export function provisionalText(
  provisional: NonNullable<Profit['provisional']>,
  today = new Date().toISOString().slice(0, 10),
): string {
  const used = formatCalendarDate(provisional.rateDate);
  const awaited = formatCalendarDate(provisional.awaitingRateDate);
  if (provisional.awaitingRateDate < today) {
    return `Provisional: converted at the ECB rate of ${used}, the latest loaded; the rate of ${awaited} is not loaded yet, and these figures update when it is.`;
  }
  return `Provisional: converted at the ECB rate of ${used}; the rate of ${awaited} is published around 16:00 CET and these figures update then.`;
}

function Total({ label, value, signed = false }: { label: string; value: MoneyView | null; signed?: boolean }) {
  return (
    <Flex justify="space-between" gap="3">
      <Text as="dt" fontWeight="medium">
        {label}
      </Text>
      <Box as="dd">
        <MoneyText value={value} signed={signed} fontWeight="semibold" />
      </Box>
    </Flex>
  );
}

/**
 * Profit Summary (spec §2 Order Details; Part 2 §3, §4): each revenue and cost line with its
 * original amount and whether it is an estimate, the tax left out of revenue, the totals,
 * the margin, how the pair was matched and the exchange rates used.
 */
export function ProfitSummary({ profit, order }: { profit: Profit; order: OrderRowView }) {
  return (
    <Stack gap="4" borderWidth="1px" borderColor="border.muted" borderRadius="lg" p="4" data-testid="profit-summary">
      <Heading as="h3" size="sm">
        Profit Summary
      </Heading>
      {profit.figures === 'rate_unavailable' && (
        <Text fontSize="sm" color="fg.warning">
          {FIGURES_TEXT.rateUnavailable}: {FIGURES_TEXT.rateUnavailableWhy}
        </Text>
      )}
      {profit.figures === 'provisional' && profit.provisional && (
        <Text fontSize="sm" color="fg.warning" data-testid="provisional-figures">
          {provisionalText(profit.provisional)}
        </Text>
      )}
      {profit.figures === 'not_computed' && (
        <Text fontSize="sm" color="fg.muted">
          {FIGURES_TEXT.notComputedWhy}
        </Text>
      )}
      <Lines title="Revenue" lines={profit.revenueLines} />
      <Lines title="Costs" lines={profit.costLines} />
      {profit.taxExcluded && profit.taxExcluded.minor !== 0 && (
        <Flex justify="space-between" gap="3" fontSize="sm" color="fg.muted">
          <Text>Sales tax / VAT collected by Etsy (not revenue)</Text>
          <MoneyText value={profit.taxExcluded} />
        </Flex>
      )}
      <Separator />
      <Stack as="dl" gap="2">
        <Total label="Total Revenue" value={profit.totalRevenue} />
        <Total label="Total Costs" value={profit.totalCosts} />
        <Total label="Net Profit" value={profit.netProfit} signed />
        <Flex justify="space-between" gap="3">
          <Text as="dt" fontWeight="medium">
            Profit Margin
          </Text>
          <Text as="dd" fontWeight="semibold">
            {profit.marginPercent === null ? '-' : formatPercent(profit.marginPercent, 1)}
          </Text>
        </Flex>
        {order.matchMethod && (
          <Flex justify="space-between" gap="3">
            <Text as="dt" fontWeight="medium">
              Match Method
            </Text>
            <Text as="dd">
              {METHOD_LABEL[order.matchMethod]}
              {order.matchConfidence !== null && ` · ${Math.round(order.matchConfidence * 100)}% confidence`}
            </Text>
          </Flex>
        )}
      </Stack>
      {profit.ratesUsed.length > 0 && (
        <Stack gap="1" fontSize="xs" color="fg.muted" data-testid="rates-used">
          <Text fontWeight="semibold">Exchange rates used (ECB reference)</Text>
          {profit.ratesUsed.map((rate) => (
            <Text key={`${rate.from}-${rate.to}-${rate.date}`}>
              1 {rate.from} = {rate.rate} {rate.to} on {rate.date}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
