import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { DisplayCurrencyCode } from '@pod/domain';
import { UsersRepository } from '@pod/db';
import { PasswordsService } from '../auth/passwords.service';
import { SessionsService } from '../auth/sessions.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import { ApiException } from '../http/api-exception';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly throttle: AbuseThrottleService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(UsersService.name);
  }

  /** Needs the current password (guesses throttled like sign-in); ends every other session of the user. */
  async changePassword(user: SignedInUser, currentPassword: string, newPassword: string): Promise<void> {
    try {
      await this.throttle.assertPasswordCheckAllowed(user.id);
    } catch (error) {
      this.logger.warn(
        { event: 'user.password_change_locked', userId: user.id },
        'password change refused by throttle',
      );
      throw error;
    }
    const passwordHash = await this.users.passwordHashOf(user.id);
    if (!(await this.passwords.verify(passwordHash ?? undefined, currentPassword))) {
      await this.throttle.recordWrongCurrentPassword(user.id);
      this.logger.info({ event: 'user.password_change_refused', userId: user.id }, 'wrong current password');
      throw new ApiException(HttpStatus.BAD_REQUEST, 'wrong_current_password', 'Current password is incorrect', {
        field: 'currentPassword',
      });
    }
    await this.throttle.clearPasswordCheckFailures(user.id);
    this.passwords.assertAcceptable(newPassword);
    await this.users.setPasswordHash(user.id, await this.passwords.hash(newPassword));
    await this.sessions.endOthers(user.id, user.sessionIdHash);
    this.logger.info({ event: 'user.password_changed', userId: user.id }, 'password changed');
  }

  async updateSettings(userId: string, currency: DisplayCurrencyCode): Promise<{ currency: DisplayCurrencyCode }> {
    await this.users.setDisplayCurrency(userId, currency);
    // Sessions carry the display currency: every gateway reads it again.
    await this.sessions.userChanged(userId);
    return { currency };
  }
}
