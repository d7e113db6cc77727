import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import {
  DISPLAY_CURRENCY_CODES,
  FIRST_SUPPORTED_YEAR,
  LAST_SUPPORTED_YEAR,
  MATCH_STATUSES,
  type DisplayCurrencyCode,
} from '@pod/domain';
import { IsSupportedMonth } from '../../http/supported-dates';

/**
 * Query strings and route parameters of the order routes. Numbers arrive as text and are
 * matched whole ("1e3", "12abc", " 1" and "01" are refused): the pipe does no implicit
 * conversion, the service parses what passed. A repeated parameter arrives as an array and
 * fails the string checks.
 */
const PAGE = /^[1-9]\d{0,5}$/;
const PAGE_MESSAGE = 'page must be a whole number from 1 to 999999';
const CURRENCY_MESSAGE = 'currency must be one of USD, EUR or GBP';
/** The status filters: all, or one of the domain's statuses (not_needed: orders that need no match). */
const STATUS_FILTERS = ['all', ...MATCH_STATUSES] as const;
const STATUS_MESSAGE = `status must be one of ${STATUS_FILTERS.join(', ')}`;

export class CurrencyQueryDto {
  @IsOptional()
  @IsIn(DISPLAY_CURRENCY_CODES, { message: CURRENCY_MESSAGE })
  currency?: DisplayCurrencyCode;
}

export class OrdersQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;

  @IsOptional()
  @IsIn(STATUS_FILTERS, { message: STATUS_MESSAGE })
  status?: (typeof STATUS_FILTERS)[number];

  // The Orders filter's windows, and the Dashboard's 365: its unmatched preview counts what its counters count.
  @IsOptional()
  @IsIn(['7', '30', '90', '365'], { message: 'days must be 7, 30, 90 or 365' })
  days?: string;

  @IsOptional()
  @IsIn(['all', 'etsy', 'printify'], { message: 'source must be one of all, etsy or printify' })
  source?: 'all' | 'etsy' | 'printify';

  @IsOptional()
  @IsIn(['active', 'archived'], { message: 'view must be active or archived' })
  view?: 'active' | 'archived';

  @IsOptional()
  @Matches(PAGE, { message: PAGE_MESSAGE })
  page?: string;

  @IsOptional()
  @Matches(/^(100|[1-9]\d?)$/, { message: 'pageSize must be a whole number from 1 to 100' })
  pageSize?: string;
}

export class MatchingQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsIn(STATUS_FILTERS, { message: STATUS_MESSAGE })
  status?: (typeof STATUS_FILTERS)[number];

  @IsOptional()
  @IsSupportedMonth({
    message: `month must be a month as YYYY-MM from ${FIRST_SUPPORTED_YEAR}-01 to ${LAST_SUPPORTED_YEAR}-12`,
  })
  month?: string;

  @IsOptional()
  @Matches(PAGE, { message: PAGE_MESSAGE })
  page?: string;
}

export class DashboardQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsIn(['7', '30', '90', '365'], { message: 'days must be 7, 30, 90 or 365' })
  days?: string;
}

export class OrderIdParams {
  @IsUUID('all', { message: 'id must be an order id (a UUID)' })
  id: string;
}

export class ManualMatchDto {
  @IsUUID('all', { message: 'withOrderId must be an order id (a UUID)' })
  withOrderId: string;
}

/** POST /api/orders/:id/remove-printify-order: the Printify order (its Printify id) to take off the receipt. */
export class RemovePrintifyOrderDto {
  @IsString({ message: 'printifyOrderId must be a Printify order id' })
  @Matches(/^[\w-]{1,64}$/, { message: 'printifyOrderId must be a Printify order id' })
  printifyOrderId: string;
}
