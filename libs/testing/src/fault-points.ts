import type { DataSource, QueryRunner } from 'typeorm';

/**
 * The failure points of security plan item 3 (the failure-point sweep), shared by the kill
 * hook that built workers load with `node --require` (test-kill-preload.ts) and the in-process
 * sweep (services/test/support/operation-faults.ts), so both count by the same rules.
 * A worker started with `POD_TEST_KILL_AT=<kind>:<k>` SIGKILLs itself at the k-th operation of that kind, so a test
 * can crash it at every point of a sync in turn. Off unless the variable is set, and refused
 * outside NODE_ENV=test. The kinds, counted over the whole process from its start:
 * - `pg-write`: a statement that changes PostgreSQL (INSERT/UPDATE/DELETE, or COMMIT), killed
 *   before it is sent;
 * - `redis`: a Redis command other than connection upkeep and blocking waits (BullMQ's job
 *   moves, lock renewals, the rate limiter's scripts…), killed before it is sent;
 * - `http`: a provider call (the clients' fetch), killed once its response headers arrived
 *   (the provider served it, nobody read it).
 * The in-process sweep throws at the same operations, counted by the same rules.
 */
export const TEST_KILL_ENV = 'POD_TEST_KILL_AT';
export const FAULT_OPERATION_KINDS = ['pg-write', 'redis', 'http'] as const;
export type FaultOperationKind = (typeof FAULT_OPERATION_KINDS)[number];

/** Whether one SQL statement writes (counted as a PostgreSQL write). */
export function isPgWrite(sql: string): boolean {
  const text = sql.trimStart();
  if (/^(INSERT|UPDATE|DELETE|MERGE|COMMIT)\b/i.test(text)) return true;
  return /^WITH\b/i.test(text) && /\b(INSERT|UPDATE|DELETE)\b/i.test(text);
}

/** Connection upkeep and blocking waits: their number depends on timing and idleness, not on the work. */
const UNCOUNTED_REDIS = new Set([
  'ping',
  'info',
  'client',
  'select',
  'hello',
  'auth',
  'quit',
  'script',
  'subscribe',
  'psubscribe',
  'unsubscribe',
  'punsubscribe',
  'bzpopmin',
  'bzpopmax',
  'brpoplpush',
  'blmove',
  'brpop',
  'blpop',
]);

/** Whether a Redis command (by name) is counted. */
export function isCountedRedisCommand(name: string): boolean {
  return !UNCOUNTED_REDIS.has(name.toLowerCase());
}

/**
 * Calls `before(sql)` ahead of every statement any query runner of `dataSource` sends (a
 * rejection from it fails the statement unsent): how the kill hook and the in-process sweep
 * see PostgreSQL writes, COMMITs included.
 */
export function beforeEachStatement(
  dataSource: Pick<DataSource, 'createQueryRunner'>,
  before: (sql: string) => void,
): void {
  // `dataSource` is one DataSource, or DataSource.prototype (every DataSource of the process:
  // the kill hook is loaded before the worker made its own).
  const create = dataSource.createQueryRunner;
  dataSource.createQueryRunner = function (this: DataSource, mode) {
    const runner: QueryRunner = create.call(this, mode);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    runner.query = ((...args: unknown[]) => {
      try {
        before(String(args[0]));
      } catch (error) {
        return Promise.reject(error);
      }
      return query(...args);
    }) as QueryRunner['query'];
    return runner;
  };
}

export function parseKillAt(value: string | undefined): { kind: FaultOperationKind; at: number } | null {
  if (!value) return null;
  const match = /^(pg-write|redis|http):([1-9][0-9]{0,6})$/.exec(value);
  if (!match) throw new Error(`${TEST_KILL_ENV} must be <pg-write|redis|http>:<k ≥ 1>, not ${JSON.stringify(value)}`);
  return { kind: match[1] as FaultOperationKind, at: Number(match[2]) };
}
