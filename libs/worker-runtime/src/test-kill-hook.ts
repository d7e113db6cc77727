import { writeSync } from 'node:fs';
import Redis from 'ioredis';
import type { DataSource, QueryRunner } from 'typeorm';

/**
 * TEST ONLY (security plan item 3, the failure-point sweep): a worker started with
 * `POD_TEST_KILL_AT=<kind>:<k>` SIGKILLs itself at the k-th operation of that kind, so a test
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
const UNCOUNTED_REDIS = new Set(['ping', 'info', 'client', 'select', 'hello', 'auth', 'quit', 'script', 'subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe', 'bzpopmin', 'bzpopmax', 'brpoplpush', 'blmove', 'brpop', 'blpop']);

/** Whether a Redis command (by name) is counted. */
export function isCountedRedisCommand(name: string): boolean {
  return !UNCOUNTED_REDIS.has(name.toLowerCase());
}

/**
 * Calls `before(sql)` ahead of every statement any query runner of `dataSource` sends (a
 * rejection from it fails the statement unsent): how the kill hook and the in-process sweep
 * see PostgreSQL writes, COMMITs included.
 */
export function beforeEachStatement(dataSource: DataSource, before: (sql: string) => void): void {
  const create = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (mode) => {
    const runner: QueryRunner = create(mode);
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

function die(kind: FaultOperationKind, at: number, what: string): never {
  // Synchronous, so the line is out before the signal: the test tells this death from a crash.
  writeSync(1, `${JSON.stringify({ event: 'test.killed_at', kind, at, what, pid: process.pid })}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL sent');
}

export interface TestKillHook {
  kind: FaultOperationKind;
  at: number;
  /** PostgreSQL writes are counted on the process's DataSource (given once it exists). */
  watch(dataSource: DataSource): void;
}

/** Installs the hook when the environment asks for it (null: nothing armed). */
export function installTestKillHook(env: NodeJS.ProcessEnv = process.env): TestKillHook | null {
  const target = parseKillAt(env[TEST_KILL_ENV]);
  if (!target) return null;
  if (env.NODE_ENV !== 'test') throw new Error(`${TEST_KILL_ENV} is a test hook; it is refused unless NODE_ENV=test`);
  let seen = 0;
  const reached = () => ++seen === target.at;
  if (target.kind === 'redis') {
    const send = Redis.prototype.sendCommand;
    Redis.prototype.sendCommand = function (this: Redis, command, stream) {
      if (isCountedRedisCommand(command.name) && reached()) die(target.kind, target.at, command.name);
      return send.call(this, command, stream);
    };
  } else if (target.kind === 'http') {
    const original = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const response = await original(input, init);
      if (reached()) die(target.kind, target.at, `HTTP ${response.status}`);
      return response;
    };
  }
  return {
    ...target,
    watch(dataSource) {
      if (target.kind !== 'pg-write') return;
      beforeEachStatement(dataSource, (sql) => {
        if (isPgWrite(sql) && reached()) die(target.kind, target.at, sql.slice(0, 60));
      });
    },
  };
}
