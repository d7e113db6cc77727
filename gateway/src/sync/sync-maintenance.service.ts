import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { SyncMode } from '@pod/contracts';
import { ConnectionsRepository, SyncRunsRepository } from '@pod/db';
import type { SyncFanOutResult } from '@pod/queue';
import { QueueRegistry } from '../queues/queue-registry';
import { SyncRunsService } from './sync-runs.service';

const FAN_OUT_PAGE = 500;
/** An active run untouched this long may have lost its job (Redis restarted, an enqueue failed). */
const STALE_AFTER_MS = 120_000;
const RECONCILE_BATCH = 200;

/**
 * The scheduled side of syncing, run by the maintenance queue's jobs: the fan-out that starts a
 * run for every connected shop (every 15 minutes incremental, nightly with the look-back), and
 * the reconciler that puts back the job of an active run whose job is gone.
 */
@Injectable()
export class SyncMaintenanceService {
  constructor(
    private readonly syncs: SyncRunsService,
    private readonly connections: ConnectionsRepository,
    private readonly runs: SyncRunsRepository,
    private readonly queues: QueueRegistry,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(SyncMaintenanceService.name);
  }

  async fanOut(mode: SyncMode): Promise<SyncFanOutResult> {
    const result: SyncFanOutResult = { started: 0, alreadyActive: 0 };
    let after: string | null = null;
    for (;;) {
      const page = await this.connections.listConnectedAfter(after, FAN_OUT_PAGE);
      for (const connection of page) {
        const { alreadyRunning } = await this.syncs.start(
          connection.userId,
          connection.provider,
          connection.shopId,
          mode === 'nightly' ? 'nightly' : 'schedule',
          mode,
        );
        if (alreadyRunning) result.alreadyActive++;
        else result.started++;
      }
      if (page.length < FAN_OUT_PAGE) break;
      after = page[page.length - 1].id;
    }
    this.logger.info({ event: 'sync.fan_out', mode, ...result }, 'scheduled syncs started');
    return result;
  }

  /**
   * `staleAfterMs` 0 checks every active run: right after Redis came back (see
   * MaintenanceWorkerService), when every job it held may be gone. Putting back a job that
   * exists is a no-op (its id is the run's), so checking a run in good health costs a lookup.
   */
  async reconcile(options: { staleAfterMs?: number } = {}): Promise<{ requeued: number; interrupted: number }> {
    const outcome = { requeued: 0, interrupted: 0 };
    for (const run of await this.runs.listStaleActive(options.staleAfterMs ?? STALE_AFTER_MS, RECONCILE_BATCH)) {
      const queue = this.queues.get(run.provider === 'etsy' ? 'etsy-sync' : 'printify-sync');
      const job = await queue.getJob(run.id);
      const state = job ? await job.getState() : 'missing';
      if (state === 'missing' || state === 'unknown') {
        // A run parked for a spent daily quota (its delayed job lost with a Redis restart) waits
        // on until its resume time: requeued at once it would only spend a call on another 429.
        const waitMs = run.status === 'waiting_for_quota' && run.resumeAt ? run.resumeAt.getTime() - Date.now() : 0;
        await this.syncs.enqueue(run, waitMs);
        await this.runs.touch(run.id);
        outcome.requeued++;
      } else if (state === 'failed' || state === 'completed') {
        // Failed past its stalls (or ended without settling the run): the next trigger resumes from the cursors.
        await this.runs.interrupt(run.id);
        outcome.interrupted++;
      } else {
        await this.runs.touch(run.id);
      }
    }
    if (outcome.requeued + outcome.interrupted > 0)
      this.logger.warn({ event: 'sync.reconciled', ...outcome }, 'active runs without a live job repaired');
    return outcome;
  }
}
