import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import type { PrintifyCostReading } from '@pod/contracts';

export class UpdateProfitSettingsDto {
  @IsOptional()
  @IsBoolean({ message: 'vatRegistered must be true or false' })
  vatRegistered?: boolean;

  @IsOptional()
  @IsIn(['per_unit', 'per_line'], { message: 'printifyCostReading must be per_unit or per_line' })
  printifyCostReading?: PrintifyCostReading;
}
