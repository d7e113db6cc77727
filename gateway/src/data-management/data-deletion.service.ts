import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { PROVIDERS } from '@pod/contracts';
import { UserDataRepository, UsersRepository } from '@pod/db';
import { PasswordsService } from '../auth/passwords.service';
import { SessionsService } from '../auth/sessions.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import { ConnectionEvents } from '../connections/connection-events';
import { ApiException } from '../http/api-exception';
import { UserJobsCanceller } from './user-jobs.canceller';

/**
 * Settings → Data Management (issue 19, ADR 0036): Delete All Data keeps the account and its
 * connections and removes every synced and derived row; Delete Account removes everything.
 * Both cancel the user's queued jobs first; jobs already running are fenced by the data epoch.
 */
@Injectable()
export class DataDeletionService {
  constructor(
    private readonly userData: UserDataRepository,
    private readonly users: UsersRepository,
    private readonly jobs: UserJobsCanceller,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly throttle: AbuseThrottleService,
    private readonly connectionEvents: ConnectionEvents,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(DataDeletionService.name);
  }

  async deleteAllData(user: SignedInUser): Promise<{ ok: true }> {
    const cancelledBefore = await this.jobs.cancel(user.id);
    const deleted = await this.userData.deleteAllData(user.id);
    // Again with the run ids: jobs of the runs just removed, and any queued while the delete ran.
    const cancelledAfter = await this.jobs.cancel(user.id, [...deleted.syncRunIds, ...deleted.matchRunIds]);
    this.logger.info(
      { event: 'user.data_deleted', userId: user.id, rows: deleted.rows, jobs: cancelledBefore + cancelledAfter },
      'all order data deleted',
    );
    return { ok: true };
  }

  /**
   * Needs the password (wrong guesses throttled like the password change's). Then: webhook
   * subscriptions removed while the tokens still exist, queued jobs cancelled, the account and
   * everything of it deleted (every table's user_id cascades from app_user), and every gateway
   * told to forget the user's sessions.
   *
   * Provider tokens: neither Etsy Open API v3 nor Printify documents a token revocation endpoint
   * (docs: integrations.md), so there is nothing to call; deleting the connection rows destroys
   * our only copy of the tokens (Etsy's access token lapses within the hour, the refresh token is
   * never used again; a Printify personal access token is revoked by the seller in Printify).
   */
  async deleteAccount(user: SignedInUser, password: string | undefined): Promise<{ ok: true }> {
    // A demo account's password is random and never shown: its visitor cannot re-enter it, and
    // the account holds only sandbox data that expires within a day anyway.
    if (!user.isDemo) await this.assertPassword(user, password);
    for (const provider of PROVIDERS) await this.connectionEvents.disconnecting(user.id, provider);
    await this.jobs.cancel(user.id);
    const deleted = await this.userData.deleteAccount(user.id);
    if (deleted) await this.jobs.cancel(user.id, [...deleted.syncRunIds, ...deleted.matchRunIds]);
    // The sessions went with the account by foreign key; every gateway drops its cached copies.
    await this.sessions.userChanged(user.id);
    await this.throttle.clearPasswordCheckFailures(user.id);
    this.logger.info({ event: 'user.account_deleted', userId: user.id, demo: user.isDemo }, 'account deleted');
    return { ok: true };
  }

  private async assertPassword(user: SignedInUser, password: string | undefined): Promise<void> {
    if (!password)
      throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Please enter your password', {
        field: 'password',
      });
    await this.throttle.assertPasswordCheckAllowed(user.id);
    const passwordHash = await this.users.passwordHashOf(user.id);
    if (!(await this.passwords.verify(passwordHash ?? undefined, password))) {
      await this.throttle.recordWrongCurrentPassword(user.id);
      this.logger.info({ event: 'user.delete_refused', userId: user.id }, 'wrong password for account deletion');
      throw new ApiException(HttpStatus.BAD_REQUEST, 'wrong_current_password', 'Password is incorrect', {
        field: 'password',
      });
    }
  }
}
