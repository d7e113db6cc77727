import type { DataSource, EntityManager } from 'typeorm';

/**
 * What every repository is built on: the process's DataSource, or the EntityManager of a
 * transaction (see withTransaction), so the same repository class works inside and outside one.
 */
export type Db = DataSource | EntityManager;

/**
 * Runs `work` in one transaction; repositories built on the manager it gets take part in it.
 * Keep it short: no provider HTTP call inside, it holds a pooled connection until it ends.
 */
export function withTransaction<T>(dataSource: DataSource, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(work);
}

/** The count a raw UPDATE/DELETE reports through TypeORM's pg driver: [rows, affected]. */
export function affectedRows(result: unknown): number {
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}

/**
 * The rows of an `UPDATE/DELETE … RETURNING` through TypeORM's pg driver, which answers those
 * with [rows, affected] (an INSERT or SELECT answers with the rows alone).
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}

/** PostgreSQL's unique_violation, optionally on one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } })?.driverError;
  return driverError?.code === '23505' && (constraint === undefined || driverError.constraint === constraint);
}

/** PostgreSQL's lock_not_available: a lock wait ran past the transaction's lock_timeout. */
export function isLockWaitTimeout(error: unknown): boolean {
  return (error as { driverError?: { code?: string } })?.driverError?.code === '55P03';
}

/** Answers SELECT 1: the readiness probes of the gateway and the workers. */
export class DatabaseProbe {
  constructor(private readonly db: Db) {}

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }
}

/** A PostgreSQL uuid's text form: an id that is not one names no row, and must not reach a uuid cast (a 500). */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
