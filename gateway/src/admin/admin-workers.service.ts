import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES, type QueueCounts, type QueueName } from '@pod/contracts';
import { shortReason, withTimeout } from '@pod/queue';
import { ApiException } from '../http/api-exception';
import { QUEUE_UNAVAILABLE_MESSAGE } from '../queues/queue-producer';
import { QueueRegistry } from '../queues/queue-registry';

const REDIS_TIMEOUT_MS = 2_000;
const COUNTED_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'paused'] as const;
/** BullMQ keeps one data point a minute, newest first; an hour is enough for the rates shown. */
const MINUTES_READ = 60;

/** One worker connection BullMQ sees on a queue. */
export interface WorkerConnection {
  /** hostname:pid of the worker process (workers are named so), or null for an unnamed one. */
  name: string | null;
  /** The worker's address as Redis sees it. */
  addr: string | null;
  /** Seconds since the worker connected, and since its connection last ran a command. */
  ageSeconds: number | null;
  idleSeconds: number | null;
}

/** Completed or failed jobs, from BullMQ's per-minute counts. */
export interface JobRate {
  /** Since the queue began counting (BullMQ's total). */
  total: number;
  lastMinute: number;
  last15Minutes: number;
  lastHour: number;
  /** Average per minute over the last hour. */
  perMinute: number;
}

export interface QueueWorkersView {
  queue: QueueName;
  counts: QueueCounts;
  isPaused: boolean;
  workers: WorkerConnection[];
  rates: { completed: JobRate; failed: JobRate };
}

/** GET /api/admin/workers: per queue, the workers BullMQ knows, job counts and completion rates. */
@Injectable()
export class AdminWorkersService {
  private readonly logger = new Logger(AdminWorkersService.name);

  constructor(private readonly registry: QueueRegistry) {}

  async overview(): Promise<QueueWorkersView[]> {
    try {
      return await withTimeout(Promise.all(QUEUE_NAMES.map((name) => this.describe(name))), REDIS_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(`Could not read the workers: ${shortReason(error)}`);
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_unavailable', QUEUE_UNAVAILABLE_MESSAGE);
    }
  }

  private async describe(name: QueueName): Promise<QueueWorkersView> {
    const queue: Queue = this.registry.get(name);
    const [counts, workers, isPaused, completed, failed] = await Promise.all([
      queue.getJobCounts(...COUNTED_STATES),
      queue.getWorkers(),
      queue.isPaused(),
      queue.getMetrics('completed', 0, MINUTES_READ - 1),
      queue.getMetrics('failed', 0, MINUTES_READ - 1),
    ]);
    return {
      queue: name,
      counts: Object.fromEntries(COUNTED_STATES.map((state) => [state, counts[state] ?? 0])) as unknown as QueueCounts,
      isPaused,
      workers: workers.map(workerConnection),
      rates: { completed: jobRate(completed), failed: jobRate(failed) },
    };
  }
}

/** A CLIENT LIST entry as BullMQ parses it (`rawname` is `<prefix>:<queue>:w:<worker name>`). */
export function workerConnection(client: Record<string, string>): WorkerConnection {
  const marker = client.rawname?.lastIndexOf(':w:') ?? -1;
  const seconds = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : null);
  return {
    name: marker >= 0 ? client.rawname.slice(marker + 3) : null,
    addr: client.addr ?? null,
    ageSeconds: seconds(client.age),
    idleSeconds: seconds(client.idle),
  };
}

/** Rates from `Queue.getMetrics`: data holds one count per minute, the current minute first. */
export function jobRate(metrics: { meta: { count: number }; data: number[] }): JobRate {
  const sum = (minutes: number) =>
    metrics.data.slice(0, minutes).reduce((total, value) => total + (Number.isFinite(value) ? value : 0), 0);
  const lastHour = sum(60);
  return {
    total: metrics.meta.count,
    lastMinute: sum(1),
    last15Minutes: sum(15),
    lastHour,
    perMinute: Math.round((lastHour / 60) * 100) / 100,
  };
}
