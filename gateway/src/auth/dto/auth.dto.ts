import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const REQUIRED = { message: 'Please fill in all fields' };

// class-validator runs a property's decorators bottom-up, and the pipe stops at the first
// failure: so the type check sits lowest, then presence, then length and format.

export class LoginDto {
  @Transform(trim)
  @MaxLength(254, { message: 'Email is too long' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Email must be text' })
  email: string;

  @MaxLength(1024, { message: 'Password is too long' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Password must be text' })
  password: string;
}

export class RegisterDto {
  @Transform(trim)
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Email is too long' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Email must be text' })
  email: string;

  @MaxLength(1024, { message: 'Password is too long' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Password must be text' })
  password: string;

  @MaxLength(1024, { message: 'Password is too long' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Confirm password must be text' })
  confirmPassword: string;

  @Transform(trim)
  @MaxLength(100, { message: 'First name must be at most 100 characters' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'First name must be text' })
  firstName: string;

  @Transform(trim)
  @MaxLength(100, { message: 'Last name must be at most 100 characters' })
  @IsNotEmpty(REQUIRED)
  @IsString({ message: 'Last name must be text' })
  lastName: string;
}
