import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Job } from 'bullmq';
import type { QueueName } from '@pod/contracts';
import { shortReason } from '@pod/queue';
import { QueueRegistry } from '../queues/queue-registry';

/** The queues whose jobs act for one user: their data names the user (userId) or one of the user's runs (runId). */
const USER_QUEUES = ['etsy-sync', 'printify-sync', 'matcher'] as const satisfies readonly QueueName[];

/** States of a job not yet taken by a worker: only these can be removed (a running job is fenced by the data epoch). */
const NOT_STARTED = ['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children'] as const;

/** Jobs read per call while looking for the user's ones. */
const PAGE = 500;

/**
 * Removes a user's queued jobs before and after their data goes (ADR 0036): sync and match jobs
 * by their run ids (the job id is the run id), refresh and compute-profits jobs by the userId in
 * their data. A job a worker holds cannot be removed (BullMQ refuses); those are fenced in
 * PostgreSQL instead: they cannot write once the epoch moved.
 */
@Injectable()
export class UserJobsCanceller {
  constructor(
    private readonly queues: QueueRegistry,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(UserJobsCanceller.name);
  }

  /** How many queued jobs of the user were removed. */
  async cancel(userId: string, runIds: readonly string[] = []): Promise<number> {
    const runs = new Set(runIds);
    let removed = 0;
    for (const name of USER_QUEUES) {
      const queue = this.queues.get(name);
      for (const runId of runs) removed += await queue.remove(runId).catch(() => 0);
      // The queue may hold other users' jobs: read it in pages, keep only this user's.
      for (let start = 0; ; start += PAGE) {
        const jobs = (await queue.getJobs([...NOT_STARTED], start, start + PAGE - 1)) as (Job | undefined)[];
        for (const job of jobs) {
          if (job && ownedBy(job, userId, runs)) removed += await this.remove(job);
        }
        if (jobs.length < PAGE) break;
      }
    }
    return removed;
  }

  private async remove(job: Job): Promise<number> {
    try {
      await job.remove();
      return 1;
    } catch (error) {
      // Taken by a worker meanwhile: fenced by the epoch instead.
      this.logger.info({ event: 'jobs.cancel_skipped', jobId: job.id, reason: shortReason(error) }, 'job was taken');
      return 0;
    }
  }
}

function ownedBy(job: Job, userId: string, runIds: ReadonlySet<string>): boolean {
  const data = job.data as { userId?: unknown; runId?: unknown } | null;
  return data?.userId === userId || (typeof data?.runId === 'string' && runIds.has(data.runId));
}
