import { PayloadSchemaError, type ProviderName } from '../http/errors';

/**
 * Defensive readers for provider payloads. Each takes the record, the key and a context
 * naming where the record sits, and either returns a well-typed value or throws a
 * PayloadSchemaError naming the field (`results[3].grandtotal.amount`). Unknown fields are
 * never looked at; numbers are accepted as JSON numbers or numeric strings.
 */
export interface Ctx {
  provider: ProviderName;
  path: string;
}

export type Rec = Readonly<Record<string, unknown>>;

const INT64_MAX = 9223372036854775807n;

export function child(ctx: Ctx, key: string | number): Ctx {
  return {
    provider: ctx.provider,
    path: typeof key === 'number' ? `${ctx.path}[${key}]` : ctx.path ? `${ctx.path}.${key}` : key,
  };
}

export function fail(ctx: Ctx, reason: string): never {
  throw new PayloadSchemaError(ctx.provider, ctx.path || '(root)', reason);
}

export function asRecord(value: unknown, ctx: Ctx): Rec {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(ctx, 'is not an object');
  return value as Rec;
}

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** The first key present (Etsy sends `create_timestamp` and `created_timestamp` for one value). */
export function firstKey(rec: Rec, keys: readonly string[]): string {
  return keys.find((key) => !isAbsent(rec[key])) ?? keys[0];
}

/** An id as a string of digits: a non-negative int64 given as a number or a numeric string. */
export function reqId(rec: Rec, key: string, ctx: Ctx): string {
  const value = rec[key];
  const at = child(ctx, key);
  if (isAbsent(value)) fail(at, 'is missing');
  return idFrom(value, at);
}

export function optId(rec: Rec, key: string, ctx: Ctx): string | null {
  const value = rec[key];
  if (isAbsent(value) || value === '') return null;
  return idFrom(value, child(ctx, key));
}

function idFrom(value: unknown, at: Ctx): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) fail(at, 'is not a whole non-negative id');
    return String(value);
  }
  if (typeof value === 'string' && /^\s*\d{1,19}\s*$/.test(value)) {
    const big = BigInt(value.trim());
    if (big > INT64_MAX) fail(at, 'is beyond int64');
    return big.toString();
  }
  return fail(at, 'is not an id');
}

/** A safe integer, given as a number or a string of digits. Never a float, never NaN. */
export function reqInt(rec: Rec, key: string, ctx: Ctx): number {
  const value = rec[key];
  const at = child(ctx, key);
  if (isAbsent(value)) fail(at, 'is missing');
  return intFrom(value, at);
}

export function optInt(rec: Rec, key: string, ctx: Ctx): number | null {
  const value = rec[key];
  if (isAbsent(value) || value === '') return null;
  return intFrom(value, child(ctx, key));
}

export function intFrom(value: unknown, at: Ctx): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) fail(at, 'is not a whole number in the safe range');
    return Object.is(value, -0) ? 0 : value;
  }
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    const parsed = Number(value.trim());
    if (!Number.isSafeInteger(parsed)) fail(at, 'is beyond the safe integer range');
    return Object.is(parsed, -0) ? 0 : parsed;
  }
  return fail(at, 'is not a whole number');
}

export function reqString(rec: Rec, key: string, ctx: Ctx): string {
  const value = rec[key];
  const at = child(ctx, key);
  if (isAbsent(value)) fail(at, 'is missing');
  if (typeof value !== 'string') fail(at, 'is not a string');
  return value;
}

/** A string, or null when absent; numbers become their decimal text (labels sent as numbers). */
export function optString(rec: Rec, key: string, ctx: Ctx): string | null {
  const value = rec[key];
  if (isAbsent(value)) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return fail(child(ctx, key), 'is not a string');
}

/** true/false, 1/0 and their string forms; `fallback` when absent. */
export function optBool(rec: Rec, key: string, ctx: Ctx, fallback: boolean): boolean {
  const value = rec[key];
  if (isAbsent(value)) return fallback;
  if (value === true || value === 1 || value === 'true' || value === '1') return true;
  if (value === false || value === 0 || value === 'false' || value === '0') return false;
  return fail(child(ctx, key), 'is not a boolean');
}

export function optArray(rec: Rec, key: string, ctx: Ctx): readonly unknown[] {
  const value = rec[key];
  if (isAbsent(value)) return [];
  if (!Array.isArray(value)) fail(child(ctx, key), 'is not an array');
  return value;
}

export function reqArray(rec: Rec, key: string, ctx: Ctx): readonly unknown[] {
  if (isAbsent(rec[key])) fail(child(ctx, key), 'is missing');
  return optArray(rec, key, ctx);
}

/** Epoch seconds (Etsy) to a Date. */
export function reqEpochSeconds(rec: Rec, key: string, ctx: Ctx): Date {
  return epochFrom(reqInt(rec, key, ctx), child(ctx, key));
}

export function optEpochSeconds(rec: Rec, key: string, ctx: Ctx): Date | null {
  const seconds = optInt(rec, key, ctx);
  return seconds === null ? null : epochFrom(seconds, child(ctx, key));
}

function epochFrom(seconds: number, at: Ctx): Date {
  // Etsy's own lower bound is 2000-01-01; anything beyond year 9999 is garbage.
  if (seconds < 0 || seconds > 253402300799) fail(at, 'is not a plausible epoch time');
  return new Date(seconds * 1000);
}

/** A lower-cased, trimmed status word (Etsy sends "Paid" where the spec says "paid"). */
export function normalisedStatus(value: string): string {
  return value.trim().toLowerCase();
}

/** One rejected record of a list: which one and why, for the worker's quarantine. */
export interface RejectedRecord {
  index: number;
  /** The record's id when it could be read (null when the id itself failed the schema). */
  id: string | null;
  /** Path of the offending field inside the page (`results[3].grandtotal.amount`). */
  field: string;
  reason: string;
  /** The record as received, for the quarantine (whatever shape it had). */
  payload: unknown;
}

export interface MappedList<T> {
  records: T[];
  /** The payload each record was mapped from, as received: `payloads[i]` is `records[i]`'s. */
  payloads: unknown[];
  rejected: RejectedRecord[];
}

/**
 * Maps each element of a list on its own, so one bad record never sinks the page: good ones
 * land in `records`, bad ones in `rejected` with the reason.
 */
export function mapEach<T>(
  items: readonly unknown[],
  ctx: Ctx,
  idKey: string,
  mapOne: (item: unknown, ctx: Ctx) => T,
): MappedList<T> {
  const records: T[] = [];
  const payloads: unknown[] = [];
  const rejected: RejectedRecord[] = [];
  items.forEach((item, index) => {
    const at = child(ctx, index);
    try {
      records.push(mapOne(item, at));
      payloads.push(item);
    } catch (error) {
      if (!(error instanceof PayloadSchemaError)) throw error;
      // A record whose id is itself what failed has no id to be known by ("abc", -5): two such
      // records must not pass for one, so it is named by its position instead.
      const idFailed = error.field === child(at, idKey).path;
      rejected.push({
        index,
        id: idFailed ? null : readIdLoosely(item, idKey),
        field: error.field,
        reason: error.reason,
        payload: item,
      });
    }
  });
  return { records, payloads, rejected };
}

function readIdLoosely(item: unknown, idKey: string): string | null {
  if (!item || typeof item !== 'object') return null;
  const value = (item as Rec)[idKey];
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
  return null;
}
