import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { DisplayCurrencyCode } from '@pod/domain';
import { UsersRepository } from '@pod/db';
import { PasswordsService } from '../auth/passwords.service';
import { SessionsService } from '../auth/sessions.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import { ApiException } from '../http/api-exception';

export const DEMO_CREDENTIALS_LOCKED =
  "The demo account's email and password cannot be changed. Create a free account to keep your own.";
export const EMAIL_IN_USE = 'That email is already in use';

const normaliseEmail = (email: string) => email.trim().toLowerCase();

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
    await this.confirmCurrentPassword(user, currentPassword, 'password_change');
    this.passwords.assertAcceptable(newPassword);
    await this.users.setPasswordHash(user.id, await this.passwords.hash(newPassword));
    await this.sessions.endOthers(user.id, user.sessionIdHash);
    this.logger.info({ event: 'user.password_changed', userId: user.id }, 'password changed');
  }

  /**
   * Like a password change: the current password first (so a stolen session can neither take
   * the account nor ask which emails have accounts), then the new email; every other session ends.
   */
  async changeEmail(user: SignedInUser, newEmail: string, currentPassword: string): Promise<{ email: string }> {
    await this.confirmCurrentPassword(user, currentPassword, 'email_change');
    const email = normaliseEmail(newEmail);
    if (email === normaliseEmail(user.email))
      throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', 'That is already your email', {
        field: 'email',
      });
    if ((await this.users.emailTaken(email)) || !(await this.users.setEmail(user.id, email)))
      throw new ApiException(HttpStatus.CONFLICT, 'conflict_email_taken', EMAIL_IN_USE, { field: 'email' });
    // Ends the other sessions and makes every gateway read this one's user (and email) again.
    await this.sessions.endOthers(user.id, user.sessionIdHash);
    this.logger.info({ event: 'user.email_changed', userId: user.id }, 'email changed');
    return { email };
  }

  async updateSettings(userId: string, currency: DisplayCurrencyCode): Promise<{ currency: DisplayCurrencyCode }> {
    await this.users.setDisplayCurrency(userId, currency);
    // Sessions carry the display currency: every gateway reads it again.
    await this.sessions.userChanged(userId);
    return { currency };
  }

  /** Demo accounts are refused; wrong current passwords are counted and, past the limit, refused (429). */
  private async confirmCurrentPassword(
    user: SignedInUser,
    currentPassword: string,
    action: 'password_change' | 'email_change',
  ): Promise<void> {
    // Nobody knows a demo account's password, and its email is made up: neither is the visitor's to change.
    if (user.isDemo) throw new ApiException(HttpStatus.FORBIDDEN, 'forbidden', DEMO_CREDENTIALS_LOCKED);
    try {
      await this.throttle.assertPasswordCheckAllowed(user.id);
    } catch (error) {
      this.logger.warn({ event: `user.${action}_locked`, userId: user.id }, `${action} refused by throttle`);
      throw error;
    }
    const passwordHash = await this.users.passwordHashOf(user.id);
    if (!(await this.passwords.verify(passwordHash ?? undefined, currentPassword))) {
      await this.throttle.recordWrongCurrentPassword(user.id);
      this.logger.info({ event: `user.${action}_refused`, userId: user.id }, 'wrong current password');
      throw new ApiException(HttpStatus.BAD_REQUEST, 'wrong_current_password', 'Current password is incorrect', {
        field: 'currentPassword',
      });
    }
    await this.throttle.clearPasswordCheckFailures(user.id);
  }
}
