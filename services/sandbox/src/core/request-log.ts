/** One request as the oracle for rate-limit and retry tests sees it: no secrets, ever. */
export interface LoggedRequest {
  seq: number;
  at: string;
  timestampMs: number;
  target: Target;
  method: string;
  path: string;
  /** Query parameters, with OAuth secrets (code, state, verifier, tokens) replaced by "[redacted]". */
  query: Record<string, string>;
  status: number | null;
  tenantId: string | null;
  /** Which credential was used, e.g. "etsy-token:3f2a…" (a hash prefix) or "etsy-key:keystring". */
  credential: string | null;
  fault: string | null;
  durationMs: number | null;
}

export type Target = 'etsy' | 'printify' | 'ecb' | 'admin' | 'other';

export { redactQuery } from '@pod/observability';

/** A bounded ring of the latest requests. */
export class RequestLog {
  private readonly entries: LoggedRequest[] = [];
  private nextSeq = 1;

  constructor(private readonly capacity: number) {}

  add(entry: Omit<LoggedRequest, 'seq'>): LoggedRequest {
    const full = { ...entry, seq: this.nextSeq++ };
    this.entries.push(full);
    // Trim in batches so a full log costs O(1) per request on average.
    if (this.entries.length > this.capacity + Math.max(1, this.capacity >> 2))
      this.entries.splice(0, this.entries.length - this.capacity);
    return full;
  }

  list(filter: {
    tenantId?: string;
    sinceMs?: number;
    afterSeq?: number;
    target?: string;
    limit?: number;
  }): LoggedRequest[] {
    const out = this.entries
      .slice(-this.capacity)
      .filter(
        (e) =>
          (filter.tenantId === undefined || e.tenantId === filter.tenantId) &&
          (filter.sinceMs === undefined || e.timestampMs >= filter.sinceMs) &&
          (filter.afterSeq === undefined || e.seq > filter.afterSeq) &&
          (filter.target === undefined || e.target === filter.target),
      );
    return filter.limit !== undefined ? out.slice(-filter.limit) : out;
  }

  clear(): void {
    this.entries.length = 0;
  }
}
