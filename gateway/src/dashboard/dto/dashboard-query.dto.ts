import { IsIn, IsOptional } from 'class-validator';
import { CurrencyQueryDto } from '../../http/currency-query.dto';

/** The Dashboard's query string. */
export class DashboardQueryDto extends CurrencyQueryDto {
  @IsOptional()
  @IsIn(['7', '30', '90', '365'], { message: 'days must be 7, 30, 90 or 365' })
  days?: string;
}
