import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { EVENT_NAMES } from '@pod/contracts';
import type { MatchRunsRepository } from '@pod/db';
import { shortReason, type DomainEventPublisher, type MatchUserPayload, type MatchUserResult } from '@pod/queue';
import type { OrderStatistics, UserMatcher } from '@pod/orders';

const FAILED_MESSAGE = 'Matching failed. Try again shortly.';

/**
 * The `match-user` job: takes its run (queued → running), matches the user, queues the user's
 * compute-profits, records the counts and announces `orders.matched` when records changed. A
 * failure is retried by BullMQ; the run fails (with a message for the user) only after the last
 * attempt.
 */
export class MatchRunsHandler {
  constructor(
    private readonly runs: MatchRunsRepository,
    private readonly matcher: UserMatcher,
    private readonly events: Pick<DomainEventPublisher, 'publish'>,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
    /** Queues the user's profit recomputation: after every run, as a sync that changed only a refund or a ledger entry changes no record. */
    private readonly afterRun: (userId: string) => Promise<void> = async () => {},
    /** Analyzes the order tables when the run's writes left their statistics behind. */
    private readonly statistics?: Pick<OrderStatistics, 'afterWrite'>,
  ) {}

  async handle(job: Job<MatchUserPayload>): Promise<MatchUserResult> {
    const { runId } = job.data;
    const owner = await this.runs.ownerOf(runId);
    const run = owner === null ? null : await this.runs.start(owner, runId);
    if (!run) return { runId, status: 'skipped', added: 0, changed: 0, removed: 0 };
    try {
      const applied = await this.matcher.matchUser(run.userId, this.now());
      // The profit job is queued before the run reads as finished: the status's `settling` sees
      // the run active, then the job pending, with no moment between them that reads "settled"
      // (the grace after a run's end does not cover an ANALYZE that takes seconds under load).
      await this.queueProfits(run.userId);
      await this.runs.succeed(run.userId, run.id, applied);
      this.logger.info({ event: 'match.done', runId, userId: run.userId, ...applied }, 'match run done');
      await this.statistics?.afterWrite(run.userId, {
        order_record: applied.added + applied.changed + applied.removed,
      });
      if (applied.added + applied.changed + applied.removed > 0) {
        await this.events.publish(EVENT_NAMES.ordersMatched, {
          userId: run.userId,
          matchRunId: run.id,
          recordsAdded: applied.added,
          recordsChanged: applied.changed,
          recordsRemoved: applied.removed,
          matchedAt: this.now().toISOString(),
        });
      }
      return { runId, status: 'succeeded', ...applied };
    } catch (error) {
      const lastAttempt = error instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (lastAttempt) await this.runs.fail(run.userId, run.id, FAILED_MESSAGE);
      throw error;
    }
  }

  private async queueProfits(userId: string): Promise<void> {
    try {
      await this.afterRun(userId);
    } catch (error) {
      // The records are matched; a lost profit trigger is made good by the next run or change.
      this.logger.warn(
        { event: 'profits.queue_failed', userId, reason: shortReason(error) },
        'could not queue profit computation',
      );
    }
  }
}
