import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/** The password re-entered; a demo account (whose password the visitor never saw) sends none. */
export class DeleteAccountDto {
  @IsOptional()
  @IsNotEmpty({ message: 'Please enter your password' })
  @MaxLength(1024, { message: 'Password is too long' })
  @IsString({ message: 'Password must be text' })
  password?: string;
}
