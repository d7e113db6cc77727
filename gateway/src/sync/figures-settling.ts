import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { isActiveMatchRunStatus } from '@pod/contracts';
import { MatchRunsRepository } from '@pod/db';
import { computeProfitsJobOptions, profitsFinishedRecently, shortReason, withTimeout } from '@pod/queue';
import { QueueRegistry } from '../queues/queue-registry';

/** How long the status waits for Redis before answering without the profit job (it polls again anyway). */
const PROFIT_JOB_READ_MS = 500;

/**
 * A run that finished this recently still counts: what it triggers (the match run after a sync's
 * `orders.synced`, the profit job after a match run) is queued a moment after it ends, and a
 * poll landing in between must not read "settled" and stop.
 */
const SETTLE_GRACE_MS = 5_000;

/** The run ended within the grace period before `now`. */
export function endedJustNow(finishedAt: Date | string | null, now: Date): boolean {
  return finishedAt !== null && now.getTime() - new Date(finishedAt).getTime() < SETTLE_GRACE_MS;
}

/** BullMQ states of a job that has not finished yet. */
const PENDING_JOB_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Whether a user's order figures may still change after their sync runs: a match run queued or
 * running (match_run), or the user's compute-profits job waiting or running (the matcher queue,
 * deduplicated per user, so one lookup finds it). A sync's fees arrive with the Etsy ledger after
 * the receipts, and only the profit run after the last match puts them into the figures.
 */
@Injectable()
export class FiguresSettling {
  constructor(
    private readonly matchRuns: MatchRunsRepository,
    private readonly queues: QueueRegistry,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(FiguresSettling.name);
  }

  async matchingOrProfitsPending(userId: string, now: Date): Promise<boolean> {
    const latest = await this.matchRuns.latestForUser(userId);
    if (latest && (isActiveMatchRunStatus(latest.status) || endedJustNow(latest.finishedAt, now))) return true;
    return this.profitJobPending(userId);
  }

  private async profitJobPending(userId: string): Promise<boolean> {
    const queue = this.queues.get('matcher');
    try {
      const dedupId = computeProfitsJobOptions(userId).deduplication.id;
      // The job's deduplication key goes as it completes: a run that just wrote the figures
      // still counts for a moment, so a page that fetched them mid-run asks again once settled.
      const finishedRecently = () => profitsFinishedRecently(queue, userId);
      const read = async () => {
        const jobId = await queue.getDeduplicationJobId(dedupId);
        if (jobId === null) return finishedRecently();
        if (PENDING_JOB_STATES.has(await queue.getJobState(jobId))) return true;
        // The two reads are not atomic: the job may have finished between them and the one kept
        // behind it (keepLastIfActive) taken over the deduplication id. Then that one counts.
        const next = await queue.getDeduplicationJobId(dedupId);
        if (next !== null && next !== jobId && PENDING_JOB_STATES.has(await queue.getJobState(next))) return true;
        return finishedRecently();
      };
      return await withTimeout(read(), PROFIT_JOB_READ_MS);
    } catch (error) {
      // Redis away: the status still answers (runs come from PostgreSQL); the next poll asks again.
      this.logger.warn({ event: 'sync.settling_unknown', reason: shortReason(error) }, 'profit job state unknown');
      return false;
    }
  }
}
