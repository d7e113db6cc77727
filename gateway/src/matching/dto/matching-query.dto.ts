import { IsIn, IsOptional, Matches } from 'class-validator';
import { FIRST_SUPPORTED_YEAR, LAST_SUPPORTED_YEAR } from '@pod/domain';
import { CurrencyQueryDto, PAGE, PAGE_MESSAGE, STATUS_FILTERS, STATUS_MESSAGE } from '../../http/shared-query.dto';
import { IsSupportedMonth } from '../../http/supported-dates';

/** The Order Matching page's query string (strings matched whole: the pipe does no implicit conversion). */
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
