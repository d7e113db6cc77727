import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PinoLogger } from 'nestjs-pino';
import type { DataSource } from 'typeorm';
import { AppConfig, effectiveProviders } from '@pod/config';
import { SandboxAdminClient } from './sandbox-admin.client';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const BATCH = 200;
/** Only one gateway replica sweeps at a time. */
const SWEEP_LOCK_ID = 7_310_425_101;

/**
 * Removes demo accounts 24 hours after they were made: their sandbox seller, then the account
 * (sessions, connections and OAuth states go with it by foreign key).
 */
@Injectable()
export class DemoCleanupService implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly sandbox: SandboxAdminClient,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(DemoCleanupService.name);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.logFailure(error)), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Returns how many expired demo accounts were removed. */
  async sweep(now = new Date()): Promise<number> {
    return this.db.transaction(async (manager) => {
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [SWEEP_LOCK_ID])) as Array<{ locked: boolean }>;
      if (!locked) return 0;
      const expired = (await manager.query(
        'SELECT id, sandbox_tenant_id FROM app_user WHERE is_demo AND demo_expires_at <= $1 ORDER BY demo_expires_at LIMIT $2 FOR UPDATE SKIP LOCKED',
        [now, BATCH],
      )) as Array<{ id: string; sandbox_tenant_id: string | null }>;
      // After going live there is no sandbox to tidy: the accounts still go.
      const sandboxRunning = effectiveProviders(this.config).mode === 'sandbox';
      for (const row of expired) {
        if (row.sandbox_tenant_id && sandboxRunning) await this.sandbox.deleteTenant(row.sandbox_tenant_id).catch((error: unknown) => this.logFailure(error));
      }
      if (expired.length) {
        await manager.query('DELETE FROM app_user WHERE id = ANY($1::uuid[]) AND is_demo', [expired.map((row) => row.id)]);
        this.logger.info({ event: 'demo.expired_removed', count: expired.length }, 'expired demo accounts removed');
      }
      return expired.length;
    });
  }

  private logFailure(error: unknown): void {
    this.logger.warn({ event: 'demo.cleanup_failed', err: { name: (error as Error)?.name, message: (error as Error)?.message } }, 'demo cleanup step failed');
  }
}
