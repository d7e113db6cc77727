import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
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

/** Validators run bottom-up: type, presence, length, then format. */
export class ChangeEmailDto {
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Email is too long' })
  @IsNotEmpty({ message: 'Please enter your new email' })
  @IsString({ message: 'Email must be text' })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  email: string;

  @IsNotEmpty({ message: 'Please enter your current password' })
  @MaxLength(1024, { message: 'Password is too long' })
  @IsString({ message: 'Current password must be text' })
  currentPassword: string;
}

export class UpdateSettingsDto {
  @IsIn(DISPLAY_CURRENCY_CODES, { message: 'Currency must be one of USD, EUR or GBP' })
  currency: DisplayCurrencyCode;
}
