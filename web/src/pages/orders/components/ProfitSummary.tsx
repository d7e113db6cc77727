import { Badge, Box, Flex, Heading, Separator, Stack, Text } from '@chakra-ui/react';
import type { FigureSource, MoneyView, OrderDetailsResponse, OrderRowView, ProfitLineView } from '@pod/contracts';
import { formatCalendarDate, formatMoney, formatPercent } from '../../../components/money/format';
import { FIGURES_TEXT, MoneyText } from '../../../components/money/MoneyText';
import { METHOD_LABEL } from '../../../components/orders/OrderBadges';
import { Tooltip } from '../../../components/ui/tooltip';

type Profit = NonNullable<OrderDetailsResponse['profit']>;

/** Where each figure comes from (Part 2 §4: every figure says where it came from). */
export const SOURCE_LABEL: Record<FigureSource, string> = {
  receipt: 'From the Etsy receipt',
  payment: 'From the Etsy payment',
  ledger: 'From the Etsy ledger',
  printify: 'From Printify',
  estimate: 'Estimated from the fee schedule',
};

/** A line's amount as it counts toward its total: a deduction (sign −1) reads "-$6.23". */
const counted = (sign: ProfitLineView['sign'], value: MoneyView): MoneyView => ({
  ...value,
  minor: sign * value.minor,
});

/** The amount as received, when it is not already the shown one ("€10.00 → $10.84" reads as a conversion). */
function originalNote(line: ProfitLineView): string | null {
  if (line.amount && line.amount.currency === line.original.currency) return null;
  return `${formatMoney(counted(line.sign, line.original))} ${line.original.currency}`;
}

/** "estimated", focusable, its tooltip saying why and how (the seller can reach it by keyboard too). */
function EstimatedBadge({ note }: { note: string | null }) {
  return (
    <Tooltip content={note ?? 'Estimated from the fee schedule.'}>
      <Badge size="xs" colorPalette="orange" variant="subtle" tabIndex={0} data-testid="profit-line-estimated">
        estimated
      </Badge>
    </Tooltip>
  );
}

function Line({ line }: { line: ProfitLineView }) {
  const original = originalNote(line);
  return (
    <Flex as="li" justify="space-between" gap="3" align="flex-start" fontSize="sm" data-testid="profit-line">
      <Stack gap="0" minW="0">
        <Flex gap="2" align="center" wrap="wrap">
          <Text>{line.label}</Text>
          {line.estimated && <EstimatedBadge note={line.estimateNote} />}
        </Flex>
        <Text fontSize="xs" color="fg.muted" data-testid="profit-line-source">
          {SOURCE_LABEL[line.source]}
          {original && ` · Original: ${original}`}
        </Text>
      </Stack>
      <MoneyText
        value={line.amount && counted(line.sign, line.amount)}
        figures={line.amount ? 'ok' : 'rate_unavailable'}
        data-testid="profit-line-amount"
      />
    </Flex>
  );
}

function Lines({ title, lines }: { title: string; lines: ProfitLineView[] }) {
  return (
    <Stack gap="2" data-testid={`profit-lines-${title.toLowerCase()}`}>
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

function Total({
  label,
  value,
  signed = false,
  testId,
}: {
  label: string;
  value: MoneyView | null;
  signed?: boolean;
  testId: string;
}) {
  return (
    <Flex justify="space-between" gap="3">
      <Text as="dt" fontWeight="medium">
        {label}
      </Text>
      <Box as="dd">
        <MoneyText value={value} signed={signed} fontWeight="semibold" data-testid={testId} />
      </Box>
    </Flex>
  );
}

/**
 * Profit Summary (spec §2 Order Details; Part 2 §3, §4): each revenue and cost line with its
 * original amount and whether it is an estimate (and why), the tax left out of revenue, the
 * totals, the margin, how the pair was matched and the exchange rates used. Lines taken off
 * their total (a discount, a refund) read as deductions, and the lines as shown add up to the
 * totals shown: the server's stored lines do (ADR 0030), and each is printed as it counts.
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
        <Total label="Total Revenue" value={profit.totalRevenue} testId="total-revenue" />
        <Total label="Total Costs" value={profit.totalCosts} testId="total-costs" />
        <Total label="Net Profit" value={profit.netProfit} signed testId="net-profit" />
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
