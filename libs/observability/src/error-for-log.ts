import { databaseErrorText, isDatabaseError, summarizeDatabaseError } from './database-errors';
import { escapeControlCharacters } from './log-escaping';

/**
 * String fields of an error that are safe to log: names and codes, never values. A TypeORM
 * QueryFailedError also carries `query`, `parameters` and the driver's `detail` ("Failing row
 * contains (…)"), which hold whatever the user sent (an email, a password hash): those stay out.
 */
const SAFE_STRING_FIELDS = [
  'name',
  'code',
  'provider',
  'table',
  'constraint',
  'column',
  'routine',
  'severity',
  'event',
];
const MAX_CAUSE_DEPTH = 3;
const MAX_TEXT_LENGTH = 4000;

/** pino serializer for `err` and `error`: type, message, stack, safe fields, numbers and flags, causes. */
export function errorForLog(error: unknown, depth = 0): Record<string, unknown> {
  if (error === null || typeof error !== 'object') return { message: text(String(error)) };
  if (isDatabaseError(error)) return databaseErrorForLog(error, depth);
  const source = error as Record<string, unknown>;
  const logged: Record<string, unknown> = { type: error.constructor?.name ?? 'Object' };
  if (typeof source.message === 'string') logged.message = text(source.message);
  if (typeof source.stack === 'string') logged.stack = text(source.stack);
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === 'number' || typeof value === 'boolean') logged[key] = value;
    else if (typeof value === 'string' && SAFE_STRING_FIELDS.includes(key)) logged[key] = text(value);
  }
  if (source.cause !== undefined && depth < MAX_CAUSE_DEPTH) logged.cause = errorForLog(source.cause, depth + 1);
  return logged;
}

function text(value: string): string {
  const escaped = escapeControlCharacters(value);
  return escaped.length > MAX_TEXT_LENGTH ? `${escaped.slice(0, MAX_TEXT_LENGTH)}…` : escaped;
}

/**
 * A PostgreSQL error: its codes and names (database-errors.ts), never its message, detail or
 * parameters; the stack keeps its frames with the message line replaced.
 */
function databaseErrorForLog(error: Record<string, unknown>, depth: number): Record<string, unknown> {
  const message = databaseErrorText(error);
  const logged: Record<string, unknown> = {
    type: error.constructor?.name ?? 'Object',
    message,
    ...summarizeDatabaseError(error),
  };
  if (typeof error.severity === 'string' && /^[A-Z]+$/.test(error.severity)) logged.severity = error.severity;
  if (typeof error.stack === 'string') {
    const frames = error.stack.indexOf('\n    at ');
    logged.stack = text(`${String(error.name ?? 'Error')}: ${message}${frames >= 0 ? error.stack.slice(frames) : ''}`);
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) logged.cause = errorForLog(error.cause, depth + 1);
  return logged;
}
