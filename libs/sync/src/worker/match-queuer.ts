import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import { MatchRunsRepository } from '@pod/db';
import { queueMatchRun } from '@pod/orders';
import { bullConnection, bullPrefix, jobOptionsFor, queueRegistration, withTimeout } from '@pod/queue';

/** The matcher queue as a sync worker's producer: it adds match-user jobs, never takes any. */
export const MATCHER_QUEUE = Symbol('MATCHER_QUEUE');
/** `(userId) => Promise`: queues the user's match run after a sync wrote orders (SyncRunner's and the refreshes' queueMatch). */
export const MATCH_QUEUER = Symbol('MATCH_QUEUER');

export type MatchQueuer = (userId: string) => Promise<unknown>;

/** How long a sync waits for Redis to take a match-user job (as the gateway's enqueue). */
const MATCH_ENQUEUE_TIMEOUT_MS = 2_000;

export function matcherQueueFor(config: AppConfig): Queue {
  const { name, defaultJobOptions } = queueRegistration('matcher');
  // The producer connection: an add while Redis is away fails at once instead of waiting offline.
  const queue = new Queue(name, {
    connection: bullConnection(config, 'producer'),
    prefix: bullPrefix(config),
    defaultJobOptions,
  });
  // Failures surface on the add (logged by the runner); the client keeps reconnecting meanwhile.
  queue.on('error', () => undefined);
  return queue;
}

/**
 * The sync worker's own trigger of the matcher (ADR 0037): the same queueMatchRun as the
 * gateway's, so one queued run per user whoever asks first, and its job id is the run id.
 */
export function matchQueuerFor(dataSource: DataSource, queue: Pick<Queue, 'add'>): MatchQueuer {
  const runs = new MatchRunsRepository(dataSource);
  return (userId) =>
    queueMatchRun(
      runs,
      (runId) =>
        withTimeout(
          queue.add('match-user', { runId }, { ...jobOptionsFor('matcher', 'match-user'), jobId: runId }),
          MATCH_ENQUEUE_TIMEOUT_MS,
        ),
      userId,
      'sync',
    );
}

@Injectable()
export class MatcherQueueCloser implements OnApplicationShutdown {
  constructor(@Inject(MATCHER_QUEUE) private readonly queue: Queue) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close().catch(() => undefined);
  }
}

export const matchQueuerProviders = [
  { provide: MATCHER_QUEUE, inject: [AppConfig], useFactory: matcherQueueFor },
  MatcherQueueCloser,
  {
    provide: MATCH_QUEUER,
    inject: [DataSource, MATCHER_QUEUE],
    useFactory: (dataSource: DataSource, queue: Queue) => matchQueuerFor(dataSource, queue),
  },
];
