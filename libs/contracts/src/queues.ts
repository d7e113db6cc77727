/**
 * The queues every process agrees on. Adding a name here without adding its row to
 * libs/queue's QUEUE_CONTRACTS is a compile error (that table `satisfies` this union).
 */
export const QUEUE_NAMES = ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate', 'maintenance'] as const;

export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(value: unknown): value is QueueName {
  return typeof value === 'string' && (QUEUE_NAMES as readonly string[]).includes(value);
}

/** Who asked for a ping: the operator view, or a test harness. */
export type PingRequester = 'operator' | 'test';
