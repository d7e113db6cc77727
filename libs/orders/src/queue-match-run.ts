import type { MatchRunTrigger } from '@pod/contracts';
import type { MatchRun, MatchRunsRepository } from '@pod/db';

/** Hands a match-user job to Redis (the gateway's QueueProducer, a sync worker's matcher queue); throws when Redis does not take it. */
export type EnqueueMatchJob = (runId: string) => Promise<unknown>;

export const MATCH_QUEUE_FAILED_MESSAGE = 'Matching could not be queued. Try again shortly.';

/**
 * Queues the user's match run, or joins the one already queued (the partial unique index
 * decides races between gateway replicas and sync workers), and hands its job to Redis with the
 * run's id as job id. Shared by every trigger — "Match Orders", the gateway hearing
 * `orders.synced`, and the sync worker itself after it wrote orders (ADR 0037): the event is a
 * hint, the sync worker's own call is what makes a lost event lose nothing.
 */
export async function queueMatchRun(
  runs: Pick<MatchRunsRepository, 'queueOrGetQueued' | 'fail'>,
  enqueue: EnqueueMatchJob,
  userId: string,
  trigger: MatchRunTrigger,
): Promise<{ run: MatchRun; created: boolean }> {
  const { run, created } = await runs.queueOrGetQueued(userId, trigger);
  try {
    // Also for a run already queued: its job id is the run's, so BullMQ ignores the add while the
    // job exists, and a job lost with Redis is put back instead of leaving the run queued forever.
    await enqueue(run.id);
  } catch (error) {
    // Redis did not take the job: a new run must not swallow the next trigger as "queued".
    if (created) await runs.fail(userId, run.id, MATCH_QUEUE_FAILED_MESSAGE);
    throw error;
  }
  return { run, created };
}
