import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PinoLogger } from 'nestjs-pino';
import type { DataSource } from 'typeorm';
import { AppConfig, effectiveProviders } from '@pod/config';
import { SandboxAdminClient } from './sandbox-admin.client';

const BATCH = 200;
/** Only one sweep runs at a time, whichever replica got the job. */
const SWEEP_LOCK_ID = 7_310_425_101;

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
    @InjectDataSource() private readonly db: DataSource,
    private readonly sandbox: SandboxAdminClient,
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
    const liveTenants = sandboxRunning ? await this.sandbox.listTenantIds().catch((error: unknown) => (this.logFailure(error), null)) : null;
    return this.db.transaction(async (manager) => {
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [SWEEP_LOCK_ID])) as Array<{ locked: boolean }>;
      if (!locked) return 0;
      const expired = (await manager.query(
        'SELECT id, sandbox_tenant_id FROM app_user WHERE is_demo AND demo_expires_at <= $1 ORDER BY demo_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED',
        [now, BATCH],
      )) as Array<{ id: string; sandbox_tenant_id: string | null }>;
      for (const row of expired) {
        if (row.sandbox_tenant_id && sandboxRunning) await this.sandbox.deleteTenant(row.sandbox_tenant_id).catch((error: unknown) => this.logFailure(error));
      }
      // A demo made while the list was fetched has a seller the list lacks: only accounts a
      // minute old or more are judged.
      const evicted = liveTenants
        ? ((await manager.query(
            `SELECT id FROM app_user WHERE is_demo AND demo_expires_at > $1 AND created_at < $2 AND sandbox_tenant_id IS NOT NULL
               AND NOT (sandbox_tenant_id = ANY($3::text[])) LIMIT $4 FOR UPDATE SKIP LOCKED`,
            [now, new Date(now.getTime() - 60_000), [...liveTenants], BATCH],
          )) as Array<{ id: string }>)
        : [];
      const removed = [...expired, ...evicted].map((row) => row.id);
      if (removed.length) {
        await manager.query('DELETE FROM app_user WHERE id = ANY($1::uuid[]) AND is_demo', [removed]);
        this.logger.info({ event: 'demo.expired_removed', count: expired.length, evicted: evicted.length }, 'expired demo accounts removed');
      }
      return removed.length;
    });
  }

  private logFailure(error: unknown): void {
    this.logger.warn({ event: 'demo.cleanup_failed', err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'demo cleanup step failed');
  }
}
