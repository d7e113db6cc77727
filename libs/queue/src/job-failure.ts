import { databaseErrorText, isDatabaseError } from '@pod/observability';

/**
 * The error a worker lets BullMQ keep for a failed attempt. BullMQ stores the thrown error's
 * message as the job's `failedReason` and its stack in `stacktrace`, both in Redis and both on
 * Bull Board. A PostgreSQL error's message (and so its stack's first line) quotes the offending
 * value (`invalid input syntax for type uuid: "…"`), so it is replaced by an error naming the
 * SQLSTATE, its condition and the statement (ADR 0019), with a stack of its own. Every other
 * error passes unchanged: handlers throw safe messages, and BullMQ's own signals (delays,
 * unrecoverable failures) must keep their class.
 */
export function jobFailure(error: unknown): unknown {
  if (!isDatabaseError(error)) return error;
  const safe = new Error(databaseErrorText(error));
  safe.name = 'DatabaseError';
  return safe;
}
