import { IsIn, IsOptional } from 'class-validator';
import { CurrencyQueryDto, DAYS_MESSAGE, DAYS_VALUES } from '../../http/shared-query.dto';

/** The Dashboard's query string. */
export class DashboardQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsIn(DAYS_VALUES, { message: DAYS_MESSAGE })
  days?: string;
}
