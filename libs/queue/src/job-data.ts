/**
 * Checks of a job's data against its queue contract, run by every worker before any I/O.
 * Anyone who can write to Redis (an operator's board, a bug in a producer, an attacker on the
 * network) can put a job on a queue; the worker must not let its data reach SQL, a provider's
 * URL or a log line before knowing it is what the contract promises. A check returns null when
 * the data is valid, else a short reason naming the field — never the value, which is untrusted
 * and would end up in the job's failedReason and the worker's log.
 */
export type DataCheck = (data: unknown) => string | null;

type FieldCheck = (value: unknown) => string | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Etsy shop and receipt ids and Printify shop ids: unsigned integers as text (up to int64). */
const NUMERIC_ID = /^\d{1,19}$/;
/** Printify order ids: 24 hex digits today; any short token of URL-safe characters is accepted. */
const TOKEN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export const field = {
  uuid: (value: unknown) => (typeof value === 'string' && UUID.test(value) ? null : 'is not a uuid'),
  numericId: (value: unknown) => (typeof value === 'string' && NUMERIC_ID.test(value) ? null : 'is not a numeric id'),
  tokenId: (value: unknown) => (typeof value === 'string' && TOKEN_ID.test(value) ? null : 'is not an id'),
  isoTime: (value: unknown) =>
    typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value))
      ? null
      : 'is not an ISO 8601 time',
  isoDateOrNull: (value: unknown) =>
    value === null || (typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)))
      ? null
      : 'is not a date or null',
  boolean: (value: unknown) => (typeof value === 'boolean' ? null : 'is not a boolean'),
  oneOf:
    (allowed: readonly string[]): FieldCheck =>
    (value) =>
      typeof value === 'string' && allowed.includes(value) ? null : `is not one of ${allowed.join(', ')}`,
} satisfies Record<string, FieldCheck | ((...args: never[]) => FieldCheck)>;

/** Marks a field that may be absent (undefined); present, it must pass `check`. */
export function optional(check: FieldCheck): FieldCheck & { optional: true } {
  return Object.assign((value: unknown) => (value === undefined ? null : check(value)), { optional: true as const });
}

/**
 * A closed object: exactly these fields (the optional ones may be missing), nothing else.
 * Unknown fields are refused too: a payload carries ids and small values only, and a field no
 * handler reads is a producer bug or someone probing.
 */
export function shape(fields: Readonly<Record<string, FieldCheck>>): DataCheck {
  const names = Object.keys(fields);
  return (data) => {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return 'data is not an object';
    const record = data as Record<string, unknown>;
    const extra = Object.keys(record).filter((key) => !Object.prototype.hasOwnProperty.call(fields, key));
    // The names of unknown keys are untrusted too: only their number is reported.
    if (extra.length > 0) return `data has ${extra.length} unknown field(s)`;
    for (const name of names) {
      const check = fields[name];
      const present = Object.prototype.hasOwnProperty.call(record, name);
      if (!present && !('optional' in check)) return `${name} is missing`;
      const problem = check(present ? record[name] : undefined);
      if (problem) return `${name} ${problem}`;
    }
    return null;
  };
}

/** The empty payload of scheduler-fed housekeeping jobs. */
export const noData: DataCheck = shape({});
