import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import {
  isActiveMatchRunStatus,
  type MatchRunTrigger,
  type MatchRunView,
  type MatchStartResponse,
  type MatchStatusResponse,
} from '@pod/contracts';
import { MatchRunsRepository, type MatchRun } from '@pod/db';
import { QueueProducer } from '../queues/queue-producer';

/**
 * Queuing match runs and reading them. A trigger while the user's run is queued joins it (the
 * partial unique index decides races between gateway replicas); the job id is the run id. The
 * gateway never matches itself.
 */
@Injectable()
export class MatchRunsService {
  constructor(
    private readonly runs: MatchRunsRepository,
    private readonly producer: QueueProducer,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(MatchRunsService.name);
  }

  async queue(userId: string, trigger: MatchRunTrigger): Promise<MatchStartResponse> {
    const { run, created } = await this.runs.queueOrGetQueued(userId, trigger);
    try {
      // Also for a run already queued: its job id is the run's, so BullMQ ignores the add while the
      // job exists, and a job lost with Redis is put back instead of leaving the run queued forever.
      await this.producer.enqueue('matcher', 'match-user', { runId: run.id }, { jobId: run.id });
    } catch (error) {
      // Redis did not take the job: a new run must not swallow the next trigger as "queued".
      if (created) await this.runs.fail(userId, run.id, 'Matching could not be queued. Try again shortly.');
      throw error;
    }
    if (created) this.logger.info({ event: 'match.queued', userId, runId: run.id, trigger }, 'match run queued');
    return { run: toMatchRunView(run), alreadyQueued: !created };
  }

  async status(userId: string): Promise<MatchStatusResponse> {
    const run = await this.runs.latestForUser(userId);
    return { run: run ? toMatchRunView(run) : null, active: run !== null && isActiveMatchRunStatus(run.status) };
  }
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toMatchRunView(run: MatchRun): MatchRunView {
  return {
    id: run.id,
    status: run.status,
    trigger: run.trigger,
    recordsAdded: run.recordsAdded,
    recordsChanged: run.recordsChanged,
    recordsRemoved: run.recordsRemoved,
    errorMessage: run.errorMessage,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
  };
}
