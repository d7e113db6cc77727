import { Body, Controller, HttpCode, Patch, Post } from '@nestjs/common';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { ChangePasswordDto, UpdateSettingsDto } from './dto/users.dto';
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

  @Patch('settings')
  updateSettings(@CurrentUser() user: SignedInUser, @Body() dto: UpdateSettingsDto) {
    return this.users.updateSettings(user.id, dto.currency);
  }
}
