/** What a worker's /healthz says; pure, so the rules are unit-tested without sockets. */

export type DependencyCheck = { status: 'up' } | { status: 'down'; reason: string };

export interface QueueCheck {
  name: string;
  /** The BullMQ worker is fetching jobs (false while waiting for dependencies or stopping). */
  running: boolean;
  /** Paused locally (this process stopped taking jobs, e.g. during shutdown). */
  paused: boolean;
  concurrency: number;
}

export interface HealthChecks {
  postgres: DependencyCheck;
  redis: DependencyCheck;
  queue: QueueCheck;
}

export interface HealthReport {
  httpStatus: 200 | 503;
  body: { status: 'ok' | 'error'; service: string; failing: string[]; checks: HealthChecks };
}

/** Healthy only when both dependencies answer and the worker is consuming its queue. */
export function buildHealthReport(service: string, checks: HealthChecks): HealthReport {
  const failing: string[] = [];
  if (checks.postgres.status !== 'up') failing.push('postgres');
  if (checks.redis.status !== 'up') failing.push('redis');
  if (!checks.queue.running || checks.queue.paused) failing.push('queue');
  const ok = failing.length === 0;
  return { httpStatus: ok ? 200 : 503, body: { status: ok ? 'ok' : 'error', service, failing, checks } };
}
