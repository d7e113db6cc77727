import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const REQUIRED = { message: 'Please fill in all fields' };

/**
 * A required text field of a sign-in or sign-up form. The pipe stops at a property's first
 * failure and runs validators in the order they are applied: type, then presence, then length
 * (a format check stacked above runs last).
 */
function RequiredText(label: string, maxLength: number, tooLong: string, options: { trim?: boolean } = {}) {
  return applyDecorators(
    // A missing field (absent or null) is an unfilled field, not a wrong type.
    IsString({
      message: ({ value }) => (value === undefined || value === null ? REQUIRED.message : `${label} must be text`),
    }),
    IsNotEmpty(REQUIRED),
    MaxLength(maxLength, { message: tooLong }),
    ...(options.trim ? [Transform(trim)] : []),
  );
}

const Email = () => RequiredText('Email', 254, 'Email is too long', { trim: true });
const Password = (label = 'Password') => RequiredText(label, 1024, 'Password is too long');
const Name = (label: string) => RequiredText(label, 100, `${label} must be at most 100 characters`, { trim: true });

export class LoginDto {
  @Email()
  email: string;

  @Password()
  password: string;
}

export class RegisterDto {
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @Email()
  email: string;

  @Password()
  password: string;

  @Password('Confirm password')
  confirmPassword: string;

  @Name('First name')
  firstName: string;

  @Name('Last name')
  lastName: string;
}
