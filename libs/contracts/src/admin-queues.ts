import type { JobCompletedEvent } from './events';
import type { QueueName } from './queues';

/** Response shapes of the operator routes under /api/admin/queues. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  paused: number;
}

export interface QueueOverview {
  name: QueueName;
  counts: QueueCounts;
  /** Worker connections BullMQ sees on this queue (one per running worker process). */
  workers: number;
  isPaused: boolean;
  /** The last job.completed event the gateway heard for this queue (kept a day), if any. */
  lastCompletedEvent: JobCompletedEvent | null;
}

export interface EnqueuedJob {
  id: string;
  queue: QueueName;
  name: string;
}

export type JobState =
  'completed' | 'failed' | 'active' | 'delayed' | 'waiting' | 'waiting-children' | 'prioritized' | 'unknown';

export interface JobView {
  id: string;
  name: string;
  state: JobState;
  result: unknown;
  /** A shortened, redacted reason; never a stack trace. */
  failedReason: string | null;
  attemptsMade: number;
  /** Epoch milliseconds, or null while unfinished. */
  finishedOn: number | null;
}
