import { Body, Controller, HttpCode, Patch, Post } from '@nestjs/common';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { ChangeEmailDto, ChangePasswordDto, UpdateSettingsDto } from './dto/users.dto';
import { UsersService } from './users.service';

@Controller('user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('change-password')
  @BodyLimit(BODY_LIMITS.signUp)
  @HttpCode(200)
  async changePassword(@CurrentUser() user: SignedInUser, @Body() dto: ChangePasswordDto) {
    await this.users.changePassword(user, dto.currentPassword, dto.newPassword);
    return { ok: true };
  }

  /** Answers the stored (normalised) email; the caller's session stays, the others end. */
  @Post('change-email')
  @BodyLimit(BODY_LIMITS.signUp)
  @HttpCode(200)
  changeEmail(@CurrentUser() user: SignedInUser, @Body() dto: ChangeEmailDto) {
    return this.users.changeEmail(user, dto.email, dto.currentPassword);
  }

  @Patch('settings')
  updateSettings(@CurrentUser() user: SignedInUser, @Body() dto: UpdateSettingsDto) {
    return this.users.updateSettings(user.id, dto.currency);
  }
}
