import type { Provider } from './providers';
import type { QueueName } from './queues';

/**
 * Domain events carried on the Redis transport of @nestjs/microservices. They are hints:
 * pub/sub drops them while a subscriber is down and every replica hears each one, so a
 * handler may only do idempotent work (enqueue a deduplicated job, refresh a cache).
 */
export const EVENT_NAMES = {
  /** A sync worker added or changed orders; the matcher should run for that user. */
  ordersSynced: 'orders.synced',
  /** The matcher changed a user's order records (profit can be recomputed for them). */
  ordersMatched: 'orders.matched',
  /** A BullMQ job finished successfully (the operator view shows the last one per queue). */
  jobCompleted: 'job.completed',
} as const;

export type EventName = (typeof EVENT_NAMES)[keyof typeof EVENT_NAMES];

/** Ids only: events never carry entities, tokens or personal data. */
export interface OrdersSyncedEvent {
  userId: string;
  provider: Provider;
  shopId: string;
  /** The run that wrote them; null for a webhook-driven refresh of one order. */
  syncRunId: string | null;
  ordersAdded: number;
  ordersChanged: number;
  /** ISO 8601. */
  syncedAt: string;
}

export interface OrdersMatchedEvent {
  userId: string;
  matchRunId: string;
  recordsAdded: number;
  recordsChanged: number;
  recordsRemoved: number;
  /** ISO 8601. */
  matchedAt: string;
}

export interface JobCompletedEvent {
  queue: QueueName;
  jobId: string;
  name: string;
  /** hostname:pid of the worker process that ran the job. */
  worker: string;
  /** ISO 8601. */
  completedAt: string;
}

/** The payload type of each event name: publishers and listeners type-check against it. */
export interface EventPayloads {
  'orders.synced': OrdersSyncedEvent;
  'orders.matched': OrdersMatchedEvent;
  'job.completed': JobCompletedEvent;
}

/**
 * The pub/sub channel of an event. Every channel carries the stack's REDIS_PREFIX, so two
 * stacks or test runs sharing one Redis never hear each other.
 */
export function eventChannel(prefix: string, name: EventName): string {
  return `${prefix}:${name}`;
}
