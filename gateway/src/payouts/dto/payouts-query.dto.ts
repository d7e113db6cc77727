import { IsOptional, Matches } from 'class-validator';

/**
 * GET /api/payouts query: numbers arrive as text and are matched whole (as the order routes':
 * "1e3", "01" and " 1" are refused), the service parses what passed.
 */
export class PayoutsQueryDto {
  @IsOptional()
  @Matches(/^[1-9]\d{0,5}$/, { message: 'page must be a whole number from 1 to 999999' })
  page?: string;

  @IsOptional()
  @Matches(/^(50|[1-4]\d|[1-9])$/, { message: 'pageSize must be a whole number from 1 to 50' })
  pageSize?: string;

  /** The display currency to show each deposit in as well (its date's ECB rate). */
  @IsOptional()
  @Matches(/^(USD|EUR|GBP)$/, { message: 'currency must be USD, EUR or GBP' })
  currency?: string;
}
