import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * How long a user's figures still read as settling after their compute-profits job finished.
 * The job's deduplication key goes when it completes, so without this mark a page that fetched
 * its figures while the run was writing, and the status a moment after the job ended, read
 * "settled" and never asked again: it kept the figures from before the run (ADR 0029). A page
 * polls every 2 s, so it sees the mark, polls once more after it and refetches on "settled".
 */
export const PROFITS_SETTLE_GRACE_MS = 5_000;

type MatcherQueue = Pick<Queue, 'client' | 'toKey'>;

// BullMQ types its connection narrowly (IRedisClient); it is the ioredis client the queue was given.
const redisOf = async (queue: MatcherQueue) => (await queue.client) as unknown as Redis;

const markKey = (queue: MatcherQueue, userId: string) => queue.toKey(`profits-finished:${userId}`);

/** The matcher, as a compute-profits job ends: its figures changed just now. Expires by itself. */
export async function markProfitsFinished(queue: MatcherQueue, userId: string): Promise<void> {
  await (await redisOf(queue)).set(markKey(queue, userId), '1', 'PX', PROFITS_SETTLE_GRACE_MS);
}

/** Whether the user's compute-profits job finished within the grace period. */
export async function profitsFinishedRecently(queue: MatcherQueue, userId: string): Promise<boolean> {
  return (await (await redisOf(queue)).exists(markKey(queue, userId))) === 1;
}
