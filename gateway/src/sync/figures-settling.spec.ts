import type { PinoLogger } from 'nestjs-pino';
import type { MatchRunsRepository } from '@pod/db';
import type { QueueRegistry } from '../queues/queue-registry';
import { FiguresSettling } from './figures-settling';

/**
 * The profit job's lookup reads the deduplication id, then that job's state: two reads, not one.
 * Between them the job can finish and the one kept behind it (keepLastIfActive) take the id over.
 */
function settlingWith(dedupIds: (string | null)[], states: Record<string, string>, finishedJustNow = false) {
  const queue = {
    toKey: (type: string) => `bull:matcher:${type}`,
    client: Promise.resolve({ exists: async (key: string) => (finishedJustNow && key.endsWith(':user-a') ? 1 : 0) }),
    getDeduplicationJobId: jest.fn(async () => (dedupIds.length > 1 ? dedupIds.shift()! : dedupIds[0])),
    getJobState: jest.fn(async (id: string) => states[id] ?? 'unknown'),
  };
  const matchRuns = { latestForUser: async () => null } as unknown as MatchRunsRepository;
  const queues = { get: () => queue } as unknown as QueueRegistry;
  const logger = { setContext: () => undefined, warn: () => undefined } as unknown as PinoLogger;
  return new FiguresSettling(matchRuns, queues, logger);
}

describe('FiguresSettling', () => {
  const now = new Date('2026-11-29T12:00:00Z');

  it('counts the job kept behind one that finished between the two reads', async () => {
    const settling = settlingWith(['41', '42'], { '41': 'completed', '42': 'waiting' });
    await expect(settling.matchingOrProfitsPending('user-a', now)).resolves.toBe(true);
  });

  it('reads settled when the job finished and no other took its place', async () => {
    const settling = settlingWith(['41'], { '41': 'completed' });
    await expect(settling.matchingOrProfitsPending('user-a', now)).resolves.toBe(false);
  });

  it('reads settled with no profit job at all, and pending while one is active', async () => {
    await expect(settlingWith([null], {}).matchingOrProfitsPending('user-a', now)).resolves.toBe(false);
    await expect(settlingWith(['7'], { '7': 'active' }).matchingOrProfitsPending('user-a', now)).resolves.toBe(true);
  });

  it('reads settling for a moment after the job finished (its figures were written just now)', async () => {
    await expect(settlingWith([null], {}, true).matchingOrProfitsPending('user-a', now)).resolves.toBe(true);
    await expect(
      settlingWith(['41'], { '41': 'completed' }, true).matchingOrProfitsPending('user-a', now),
    ).resolves.toBe(true);
    await expect(settlingWith([null], {}, true).matchingOrProfitsPending('user-b', now)).resolves.toBe(false);
  });
});
