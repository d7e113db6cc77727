/**
 * Sliding-window counters, keyed by bucket (an Etsy access token or API key, a Printify account).
 * `hit` counts a request if it fits under every limit, else reports how long to wait.
 */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

export interface LimitResult {
  allowed: boolean;
  /** Requests left in each window after this one (same order as the limits). */
  remaining: number[];
  /** Which limit refused (index), when refused. */
  refusedBy?: number;
  retryAfterSeconds?: number;
}

/** Times of accepted requests per bucket, oldest first, pruned to the longest window. */
export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly currentLimits: () => readonly WindowLimit[]) {}

  private get limits(): readonly WindowLimit[] {
    return this.currentLimits();
  }

  hit(bucket: string, nowMs: number): LimitResult {
    const longest = Math.max(...this.limits.map((l) => l.windowMs));
    let times = this.hits.get(bucket);
    if (!times) {
      times = [];
      this.hits.set(bucket, times);
    }
    let drop = 0;
    while (drop < times.length && times[drop] <= nowMs - longest) drop++;
    if (drop > 0) times.splice(0, drop);
    const used = this.limits.map((l) => countSince(times, nowMs - l.windowMs));
    for (let i = 0; i < this.limits.length; i++) {
      if (used[i] >= this.limits[i].limit) {
        // The oldest request inside this window leaves it at (its time + window).
        const oldest = times[times.length - used[i]];
        const waitMs = oldest + this.limits[i].windowMs - nowMs;
        return {
          allowed: false,
          remaining: this.limits.map((l, j) => Math.max(0, l.limit - used[j])),
          refusedBy: i,
          retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
        };
      }
    }
    times.push(nowMs);
    return { allowed: true, remaining: this.limits.map((l, j) => l.limit - used[j] - 1) };
  }

  /** Pretends the bucket used up a window (for the quota-exhausted knob). */
  exhaust(bucket: string, limitIndex: number, nowMs: number): void {
    const times = this.hits.get(bucket) ?? [];
    for (let i = 0; i < this.limits[limitIndex].limit; i++) times.push(nowMs);
    this.hits.set(bucket, times);
  }

  clear(): void {
    this.hits.clear();
  }
}

function countSince(times: number[], boundary: number): number {
  // times is sorted: binary search for the first time after the boundary.
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (times[mid] > boundary) hi = mid;
    else lo = mid + 1;
  }
  return times.length - lo;
}
