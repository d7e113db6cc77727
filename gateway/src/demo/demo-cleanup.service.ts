import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import { DemoAccountsRepository } from '@pod/db';
import { SessionsService } from '../auth/sessions.service';
import { SandboxAdminClient } from './sandbox-admin.client';

const BATCH = 200;

/**
 * Removes demo accounts 24 hours after they were made: their sandbox seller, then the account
 * (sessions, connections and OAuth states go with it by foreign key). The sandbox drops the
 * seller at the same moment on its own (the demo passes its lifetime when creating it).
 * Run by the `demo-cleanup` job scheduler (libs/queue's schedules.ts, DEMO_CLEANUP_EVERY_SECONDS)
 * through the gateway's maintenance worker; no timer of its own.
 */
@Injectable()
export class DemoCleanupService {
  constructor(
    private readonly demoAccounts: DemoAccountsRepository,
    private readonly sandbox: SandboxAdminClient,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(DemoCleanupService.name);
  }

  /**
   * Removes expired demo accounts, and those whose sandbox seller the sandbox already removed
   * (its own expiry, or evicted to make room): their visitors land on "Try the demo" again.
   * Returns how many accounts were removed.
   */
  async sweep(now = new Date()): Promise<number> {
    // After going live there is no sandbox to tidy or ask: expired accounts still go.
    const sandboxRunning = effectiveProviders(this.config).mode === 'sandbox';
    const liveTenants = sandboxRunning
      ? await this.sandbox.listTenantIds().catch((error: unknown) => (this.logFailure(error), null))
      : null;
    // A demo made while the list was fetched has a seller the list lacks: only accounts a
    // minute old or more are judged.
    const removed = await this.demoAccounts.removeExpired({
      now,
      batch: BATCH,
      liveTenantIds: liveTenants,
      judgedBefore: new Date(now.getTime() - 60_000),
    });
    if (!removed) return 0;
    // Their sessions went with them by foreign key: no gateway may keep trusting its copy.
    if (removed.expired.length + removed.evicted > 0) await this.sessions.accountsRemoved();
    // After the commit: a seller left behind by a failed call expires in the sandbox on its own.
    for (const account of removed.expired) {
      if (account.sandboxTenantId && sandboxRunning)
        await this.sandbox.deleteTenant(account.sandboxTenantId).catch((error: unknown) => this.logFailure(error));
    }
    const count = removed.expired.length + removed.evicted;
    if (count > 0)
      this.logger.info(
        { event: 'demo.expired_removed', count: removed.expired.length, evicted: removed.evicted },
        'expired demo accounts removed',
      );
    return count;
  }

  private logFailure(error: unknown): void {
    this.logger.warn(
      { event: 'demo.cleanup_failed', err: { name: (error as Error)?.name, message: (error as Error)?.message } },
      'demo cleanup step failed',
    );
  }
}
