import type { TestSandbox } from '@pod/testing';

/** One entry of the sandbox's request log (GET /__sandbox/requests). */
export interface LoggedRequest {
  seq: number;
  timestampMs: number;
  target: 'etsy' | 'printify' | 'ecb';
  method: string;
  path: string;
  status: number | null;
  tenantId: string | null;
  credential: string | null;
}

/** The tenant's provider requests logged at or after `sinceMs`. */
export async function requestsOf(sandbox: TestSandbox, tenantId: string, sinceMs: number): Promise<LoggedRequest[]> {
  const query = new URLSearchParams({ tenantId, since: String(sinceMs) });
  const { requests } = await sandbox.admin<{ requests: LoggedRequest[] }>('GET', `/requests?${query}`);
  return requests;
}

/**
 * The most requests inside any window (t − windowMs, t] — the sandbox's own sliding window
 * (it refuses a request when the window before it already holds the limit).
 */
export function maxInWindow(timesMs: readonly number[], windowMs: number): number {
  const sorted = [...timesMs].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j] <= sorted[i] - windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** The most accepted requests of one budget (an Etsy token, a Printify account) in any window. */
export function busiestWindow(
  requests: readonly LoggedRequest[],
  budgetOf: (request: LoggedRequest) => string | null,
  windowMs: number,
): number {
  const byBudget = new Map<string, number[]>();
  for (const request of requests) {
    const budget = budgetOf(request);
    if (budget === null || request.status === 429) continue;
    const times = byBudget.get(budget) ?? [];
    times.push(request.timestampMs);
    byBudget.set(budget, times);
  }
  return Math.max(0, ...[...byBudget.values()].map((times) => maxInWindow(times, windowMs)));
}

/** The Etsy per-token budget a request spent (`etsy-token:…`), null for key-only calls. */
export const etsyTokenBudget = (request: LoggedRequest): string | null =>
  request.credential?.startsWith('etsy-token:') ? request.credential : null;

/** The Printify account a request spent (`printify-account:<id> token:…` → the account). */
export const printifyAccountBudget = (request: LoggedRequest): string | null =>
  /^printify-account:(\S+)/.exec(request.credential ?? '')?.[1] ?? null;

/**
 * The shortest time, over one budget's accepted requests, between a request and the one
 * `count` − 1 after it: with `count` = limit + 1, how close the busiest moment came to a 429
 * (the sandbox refuses when that span is under the window). Null with fewer requests.
 */
export function tightestSpan(
  requests: readonly LoggedRequest[],
  budgetOf: (request: LoggedRequest) => string | null,
  count: number,
): number | null {
  const byBudget = new Map<string, number[]>();
  for (const request of requests) {
    const budget = budgetOf(request);
    if (budget === null || request.status === 429) continue;
    const times = byBudget.get(budget) ?? [];
    times.push(request.timestampMs);
    byBudget.set(budget, times);
  }
  let best: number | null = null;
  for (const times of byBudget.values()) {
    times.sort((a, b) => a - b);
    for (let i = 0; i + count - 1 < times.length; i += 1)
      best = Math.min(best ?? Infinity, times[i + count - 1] - times[i]);
  }
  return best;
}
