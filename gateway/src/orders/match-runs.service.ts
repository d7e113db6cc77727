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
import { queueMatchRun } from '@pod/orders';
import { QueueProducer } from '../queues/queue-producer';

/**
 * Queuing match runs (queueMatchRun of @pod/orders: a trigger while the user's run is queued
 * joins it; the job id is the run id) and reading them. The gateway never matches itself.
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
    const { run, created } = await queueMatchRun(
      this.runs,
      (runId) => this.producer.enqueue('matcher', 'match-user', { runId }, { jobId: runId }),
      userId,
      trigger,
    );
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
