import type { QueueName } from '@pod/contracts';
import type { PingResult } from '@pod/queue';
import { workerId } from './worker-identity';

/** The `ping` job every queue has: a real no-op that says which process ran it and when. */
export function pingHandler(queue: QueueName, now: () => Date = () => new Date()): () => Promise<PingResult> {
  return async () => ({ queue, worker: workerId(), completedAt: now().toISOString() });
}
