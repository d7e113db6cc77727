import { createHash } from 'node:crypto';

/**
 * PostgreSQL's errors as the log may carry them. Their message quotes the offending value
 * (`invalid input syntax for type uuid: "not-a-uuid"`), `detail` the failing row, `where` the
 * PL/pgSQL context, and TypeORM's QueryFailedError adds the `parameters`: all may be what a user
 * sent. What identifies the failure without them: the SQLSTATE `code`, the server `routine`, the
 * constraint, table and column names, and the statement's name (its verb and first table, and
 * a hash of its text to find it in the code; our SQL carries values only as $n parameters).
 */
export interface DatabaseErrorSummary {
  code: string;
  condition?: string;
  routine?: string;
  constraint?: string;
  table?: string;
  column?: string;
  statement?: string;
}

/** The SQLSTATEs worth a name in the log line (Appendix A of PostgreSQL's manual); others show the code alone. */
const CONDITIONS: Record<string, string> = {
  '08006': 'connection_failure',
  '22001': 'string_data_right_truncation',
  '22003': 'numeric_value_out_of_range',
  '22007': 'invalid_datetime_format',
  '22008': 'datetime_field_overflow',
  '22P02': 'invalid_text_representation',
  '23502': 'not_null_violation',
  '23503': 'foreign_key_violation',
  '23505': 'unique_violation',
  '23514': 'check_violation',
  '25P02': 'in_failed_sql_transaction',
  '40001': 'serialization_failure',
  '40P01': 'deadlock_detected',
  '42501': 'insufficient_privilege',
  '42703': 'undefined_column',
  '42P01': 'undefined_table',
  '53300': 'too_many_connections',
  '55P03': 'lock_not_available',
  '57014': 'query_canceled',
  '57P01': 'admin_shutdown',
};
const SQLSTATE = /^[0-9A-Z]{5}$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/** TypeORM's QueryFailedError, or the pg driver's DatabaseError (a SQLSTATE code and a severity). */
export function isDatabaseError(error: unknown): error is Record<string, unknown> {
  if (error === null || typeof error !== 'object') return false;
  const { name, code, severity } = error as Record<string, unknown>;
  return (
    name === 'QueryFailedError' || (typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string')
  );
}

export function summarizeDatabaseError(error: Record<string, unknown>): DatabaseErrorSummary {
  const code = typeof error.code === 'string' && SQLSTATE.test(error.code) ? error.code : 'unknown';
  const summary: DatabaseErrorSummary = { code };
  if (CONDITIONS[code]) summary.condition = CONDITIONS[code];
  for (const key of ['routine', 'constraint', 'table', 'column'] as const) {
    const value = error[key];
    // Names only: anything else in these fields is dropped rather than trusted.
    if (typeof value === 'string' && NAME.test(value)) summary[key] = value;
  }
  if (typeof error.query === 'string') summary.statement = statementName(error.query);
  return summary;
}

/** "PostgreSQL error 22P02 (invalid_text_representation) in SELECT match_run#1a2b3c4d": what a log line says instead of the message. */
export function databaseErrorText(error: Record<string, unknown>): string {
  const { code, condition, statement } = summarizeDatabaseError(error);
  return `PostgreSQL error ${code}${condition ? ` (${condition})` : ''}${statement ? ` in ${statement}` : ''}`;
}

/** The error's message fit for a log line: a database error's is replaced (see above), others pass. */
export function loggableErrorMessage(error: unknown): string {
  if (isDatabaseError(error)) return databaseErrorText(error);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** "UPDATE sync_run#1a2b3c4d": the verb, the first table named, and a hash of the whole text. */
export function statementName(query: string): string {
  const verb = /^\s*([A-Za-z]+)/.exec(query)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+(?:"?[A-Za-z_][A-Za-z0-9_]*"?\.)?"?([A-Za-z_][A-Za-z0-9_]*)"?/i.exec(
    query,
  )?.[1];
  const hash = createHash('sha256').update(query).digest('hex').slice(0, 8);
  return `${verb}${table ? ` ${table}` : ''}#${hash}`;
}

/**
 * SQLSTATEs that say the server could not take the work now, not that the statement was wrong:
 * class 08 (connection exceptions), too many connections, the server shutting down or starting,
 * and a statement cancelled by statement_timeout under load.
 */
const UNAVAILABLE_STATES = /^(08...|53300|57P01|57P02|57P03|57014)$/;
/** What pg and pg-pool throw, with no SQLSTATE, when no connection could be had or it dropped. */
const UNAVAILABLE_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Client has encountered a connection error',
];
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * Whether an error means PostgreSQL could not be reached or could not take the work in time
 * (the pool's wait ran out, the server refused or restarted): a busy service to answer with
 * 503 and Retry-After, not a fault to answer with 500. TypeORM's QueryFailedError carries the
 * driver's error as `driverError`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, message, severity, driverError } = error as Record<string, unknown>;
  if (driverError && driverError !== error && isDatabaseUnavailable(driverError)) return true;
  // FATAL ends the session: the server refused or dropped the connection (e.g. 55000, the
  // database not accepting connections), whatever the SQLSTATE.
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  if (typeof code === 'string' && (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text));
}
