import { Text, type TextProps } from '@chakra-ui/react';
import type { FiguresState, MoneyView } from '@pod/contracts';
import { Tooltip } from '../ui/tooltip';
import { formatMoney } from './format';

export const FIGURES_TEXT = {
  rateUnavailable: 'Rate unavailable',
  rateUnavailableWhy:
    'No exchange rate converts this order’s currency for its date, so it is left out of totals rather than shown unconverted.',
  notComputedWhy: 'Not computed yet: the figures update after the next matching pass.',
} as const;

interface MoneyTextProps extends Omit<TextProps, 'children' | 'color'> {
  value: MoneyView | null;
  /** The row's `figures`: `rate_unavailable` never shows a number, `not_computed` shows "-", `provisional` shows it like `ok` (the row marks it). */
  figures?: FiguresState;
  /** Profit: green when ≥ 0, red when < 0 (spec §2, Orders). */
  signed?: boolean;
}

/** One money figure of an order row, or why there is none ("-" for a missing value, spec §2). */
export function MoneyText({ value, figures = 'ok', signed = false, ...textProps }: MoneyTextProps) {
  if (figures === 'rate_unavailable') {
    return (
      <Tooltip content={FIGURES_TEXT.rateUnavailableWhy}>
        <Text as="span" color="fg.warning" fontSize="sm" whiteSpace="nowrap" tabIndex={0} {...textProps}>
          {FIGURES_TEXT.rateUnavailable}
        </Text>
      </Tooltip>
    );
  }
  if (figures === 'not_computed') {
    return (
      <Tooltip content={FIGURES_TEXT.notComputedWhy}>
        <Text as="span" color="fg.muted" tabIndex={0} aria-label={FIGURES_TEXT.notComputedWhy} {...textProps}>
          -
        </Text>
      </Tooltip>
    );
  }
  if (!value)
    return (
      <Text as="span" color="fg.muted" {...textProps}>
        -
      </Text>
    );
  const color = signed ? (value.minor >= 0 ? 'fg.success' : 'fg.error') : undefined;
  return (
    <Text as="span" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color={color} {...textProps}>
      {formatMoney(value)}
    </Text>
  );
}
