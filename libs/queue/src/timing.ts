/** Small timing helpers: every wait in the runtime is bounded or abortable, none busy-loops. */
import { loggableErrorMessage } from '@pod/observability';

export class TimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/** Settles with `promise`, or rejects with TimeoutError after `ms` (the promise itself runs on). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms`, or rejects at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Capped exponential back-off for dependency waits: 500 ms, 1 s, 2 s … 10 s. */
export function dependencyBackoffMs(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.min(Math.max(attempt, 0), 5));
}

/**
 * Lets a repeated warning through at most once per window, counting the ones it held back:
 * a Redis outage makes ioredis report every reconnect attempt, which would flood the log.
 */
export class WarningThrottle {
  private lastAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Returns how many were suppressed since the last one let through, or null to stay quiet. */
  take(): number | null {
    const now = this.now();
    if (now - this.lastAt < this.windowMs) {
      this.suppressed += 1;
      return null;
    }
    const held = this.suppressed;
    this.lastAt = now;
    this.suppressed = 0;
    return held;
  }
}

/** A short, single-line reason for a health report or log: no stacks, no multi-line server text. */
export function shortReason(error: unknown): string {
  // A PostgreSQL error's message quotes the offending value: its code and statement instead.
  const text = loggableErrorMessage(error);
  return text.replace(/[\r\n]+/g, ' ').slice(0, 160);
}
