import { IsIn, IsOptional } from 'class-validator';
import { DISPLAY_CURRENCY_CODES, MATCH_STATUSES, REPORT_WINDOW_DAYS, type DisplayCurrencyCode } from '@pod/domain';

/**
 * What the order, matching and dashboard queries share: the display currency, a page number
 * matched whole ("1e3", "12abc", " 1" and "01" are refused; the service parses what passed) and
 * the report windows' `days`.
 */
export const PAGE = /^[1-9]\d{0,5}$/;
export const PAGE_MESSAGE = 'page must be a whole number from 1 to 999999';
/** `days`: one of the report windows, as text ("7", "30", "90", "365"). */
export const DAYS_VALUES = REPORT_WINDOW_DAYS.map(String);
export const DAYS_MESSAGE = `days must be ${DAYS_VALUES.slice(0, -1).join(', ')} or ${DAYS_VALUES.at(-1)}`;
/** The status filters: all, or one of the domain's statuses (not_needed: orders that need no match). */
export const STATUS_FILTERS = ['all', ...MATCH_STATUSES] as const;
export const STATUS_MESSAGE = `status must be one of ${STATUS_FILTERS.join(', ')}`;
const CURRENCY_MESSAGE = 'currency must be one of USD, EUR or GBP';

export class CurrencyQueryDto {
  @IsOptional()
  @IsIn(DISPLAY_CURRENCY_CODES, { message: CURRENCY_MESSAGE })
  currency?: DisplayCurrencyCode;
}
