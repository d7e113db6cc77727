import { IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { DISPLAY_CURRENCY_CODES, type DisplayCurrencyCode } from '@pod/domain';

export class ChangePasswordDto {
  @IsNotEmpty({ message: 'Please enter your current password' })
  @MaxLength(1024, { message: 'Password is too long' })
  @IsString({ message: 'Current password must be text' })
  currentPassword: string;

  @IsNotEmpty({ message: 'Please enter a new password' })
  @MaxLength(1024, { message: 'Password is too long' })
  @IsString({ message: 'New password must be text' })
  newPassword: string;
}

export class UpdateSettingsDto {
  @IsIn(DISPLAY_CURRENCY_CODES, { message: 'Currency must be one of USD, EUR or GBP' })
  currency: DisplayCurrencyCode;
}
