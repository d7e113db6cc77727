import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { isQueueName, QUEUE_NAMES, type JobCompletedEvent, type QueueName } from '@pod/contracts';
import { withTimeout } from '@pod/queue';
import { REDIS } from '../core/core.module';

/** A day is enough for "is this queue being worked?"; older news is noise. */
const TTL_SECONDS = 24 * 3600;
const READ_TIMEOUT_MS = 2_000;

/**
 * The last `job.completed` event heard per queue, kept in Redis (not process memory) so every
 * gateway replica shows the same. Keys sit under REDIS_PREFIX through the client's keyPrefix.
 */
@Injectable()
export class LastCompletionStore {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async record(event: JobCompletedEvent): Promise<void> {
    await this.redis.set(keyOf(event.queue), JSON.stringify(event), 'EX', TTL_SECONDS);
  }

  /** Every queue's last completion (null where none was heard within the TTL). */
  async readAll(): Promise<Record<QueueName, JobCompletedEvent | null>> {
    const values = await withTimeout(this.redis.mget(QUEUE_NAMES.map(keyOf)), READ_TIMEOUT_MS);
    return Object.fromEntries(QUEUE_NAMES.map((name, index) => [name, parse(values[index])])) as Record<
      QueueName,
      JobCompletedEvent | null
    >;
  }
}

function keyOf(queue: QueueName): string {
  return `events:last-completed:${queue}`;
}

function parse(value: string | null | undefined): JobCompletedEvent | null {
  if (!value) return null;
  try {
    const event: unknown = JSON.parse(value);
    return isJobCompletedEvent(event) ? event : null;
  } catch {
    return null;
  }
}

/** Events arrive from the network: check the shape before trusting it. */
export function isJobCompletedEvent(value: unknown): value is JobCompletedEvent {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Record<string, unknown>;
  const shortString = (field: unknown) => typeof field === 'string' && field.length > 0 && field.length <= 200;
  return (
    isQueueName(event.queue) &&
    shortString(event.jobId) &&
    shortString(event.name) &&
    shortString(event.worker) &&
    shortString(event.completedAt) &&
    !Number.isNaN(Date.parse(event.completedAt as string))
  );
}
