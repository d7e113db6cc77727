import type { Target } from './request-log';

/**
 * Fault knobs for tests: each fault affects the next `count` matching requests (after skipping
 * `skip` of them). Kinds that change state rather than answers (expired or revoked tokens) are
 * applied when the fault is created and are not stored here.
 */
export const REQUEST_FAULT_KINDS = [
  '429',
  '5xx',
  'hang',
  'malformed-json',
  'redirect',
  'quota-exhausted',
  'slow-body',
  'oversize',
  'reset',
  'truncated-body',
  'patch-records',
] as const;

/**
 * For 'patch-records': a change to record `index` of a list answer (Etsy `results`, Printify
 * `data`): `set` puts `value` at `path` (its parent must exist), `delete` removes the key there.
 * Schema drift on demand: missing fields, nulls, numbers as strings, floats, huge strings, extras.
 */
export interface RecordPatch {
  index: number;
  path: (string | number)[];
  op: 'set' | 'delete';
  value?: unknown;
}
export const STATE_FAULT_KINDS = ['expire-access-token', 'revoke-refresh-token'] as const;
export type RequestFaultKind = (typeof REQUEST_FAULT_KINDS)[number];

export interface FaultSpec {
  target: Exclude<Target, 'admin' | 'other'>;
  kind: RequestFaultKind;
  match: { pathPrefix?: string; tenantId?: string };
  count: number;
  skip: number;
  retryAfterSeconds?: number;
  status?: number;
  /** For 'redirect': where to send the client (default https://evil.example/). */
  location?: string;
  /** For 'slow-body': how fast the body trickles out after prompt headers (default 1 byte a second). */
  bytesPerSecond?: number;
  /** For 'oversize': the size the JSON answer is padded to with trailing whitespace (default 11 MiB). */
  bytes?: number;
  /** For 'patch-records': the changes made to the answer's records. */
  patches?: RecordPatch[];
}

export interface ActiveFault extends FaultSpec {
  id: number;
  hits: number;
  seen: number;
}

export class FaultBook {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(spec: FaultSpec): ActiveFault {
    const fault = { ...spec, id: this.nextId++, hits: 0, seen: 0 };
    this.faults.push(fault);
    return fault;
  }

  /** The fault this request triggers, if any (consuming one of its uses). */
  take(target: Target, path: string, tenantId: string | null): ActiveFault | null {
    for (const fault of this.faults) {
      if (fault.target !== target) continue;
      if (fault.match.pathPrefix !== undefined && !path.startsWith(fault.match.pathPrefix)) continue;
      if (fault.match.tenantId !== undefined && fault.match.tenantId !== tenantId) continue;
      fault.seen++;
      if (fault.seen <= fault.skip) continue;
      fault.hits++;
      if (fault.hits >= fault.count) this.faults = this.faults.filter((f) => f !== fault);
      return fault;
    }
    return null;
  }

  list(): ActiveFault[] {
    return [...this.faults];
  }

  clear(): void {
    this.faults = [];
  }
}
