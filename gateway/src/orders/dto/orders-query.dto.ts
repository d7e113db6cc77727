import { IsIn, IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';
import { ORDER_SORT_KEYS, type OrderSortKey, type SortDirection } from '@pod/db';
import {
  CurrencyQueryDto,
  DAYS_MESSAGE,
  DAYS_VALUES,
  PAGE,
  PAGE_MESSAGE,
  STATUS_FILTERS,
  STATUS_MESSAGE,
} from '../../http/shared-query.dto';

/**
 * Query strings and route parameters of the order routes. Numbers arrive as text and are
 * matched whole ("1e3", "12abc", " 1" and "01" are refused): the pipe does no implicit
 * conversion, the service parses what passed. A repeated parameter arrives as an array and
 * fails the string checks. OrderFiltersQueryDto holds what the list and its CSV export
 * (GET /api/orders/export) share: the filters, the sort and the display currency.
 */
export class OrderFiltersQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;

  @IsOptional()
  @IsIn(STATUS_FILTERS, { message: STATUS_MESSAGE })
  status?: (typeof STATUS_FILTERS)[number];

  // The Orders filter's windows, and the Dashboard's 365: its unmatched preview counts what its counters count.
  @IsOptional()
  @IsIn(DAYS_VALUES, { message: DAYS_MESSAGE })
  days?: string;

  @IsOptional()
  @IsIn(['all', 'etsy', 'printify'], { message: 'source must be one of all, etsy or printify' })
  source?: 'all' | 'etsy' | 'printify';

  @IsOptional()
  @IsIn(['active', 'archived'], { message: 'view must be active or archived' })
  view?: 'active' | 'archived';

  @IsOptional()
  @IsIn(ORDER_SORT_KEYS, { message: 'sort must be one of date, revenue, cost, profit or margin' })
  sort?: OrderSortKey;

  @IsOptional()
  @IsIn(['asc', 'desc'], { message: 'dir must be asc or desc' })
  dir?: SortDirection;
}

/** GET /api/orders: the filters and the page. */
export class OrdersQueryDto extends OrderFiltersQueryDto {
  @IsOptional()
  @Matches(PAGE, { message: PAGE_MESSAGE })
  page?: string;

  @IsOptional()
  @Matches(/^(100|[1-9]\d?)$/, { message: 'pageSize must be a whole number from 1 to 100' })
  pageSize?: string;
}

/** GET /api/orders/:id/candidates: the dialog's search and page (20 candidates a page). */
export class CandidatesQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsString({ message: 'search must be text' })
  @MaxLength(100, { message: 'search must be at most 100 characters' })
  search?: string;

  @IsOptional()
  @Matches(PAGE, { message: PAGE_MESSAGE })
  page?: string;
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
