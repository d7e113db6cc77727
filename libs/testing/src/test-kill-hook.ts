import { writeSync } from 'node:fs';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import {
  beforeEachStatement,
  isCountedRedisCommand,
  isPgWrite,
  parseKillAt,
  TEST_KILL_ENV,
  type FaultOperationKind,
} from './fault-points';

function die(kind: FaultOperationKind, at: number, what: string): never {
  // Synchronous, so the line is out before the signal: the test tells this death from a crash.
  writeSync(1, `${JSON.stringify({ event: 'test.killed_at', kind, at, what, pid: process.pid })}\n`);
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL sent');
}

/**
 * Arms the kill hook when the environment asks for it (see fault-points.ts): patches the Redis
 * client, fetch and every DataSource's query runners of this process. Returns what it armed
 * (null: nothing). Only test-kill-preload.ts calls it, in a process started with `--require`.
 */
export function installTestKillHook(
  env: NodeJS.ProcessEnv = process.env,
): { kind: FaultOperationKind; at: number } | null {
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
  } else {
    beforeEachStatement(DataSource.prototype, (sql) => {
      if (isPgWrite(sql) && reached()) die(target.kind, target.at, sql.slice(0, 60));
    });
  }
  return target;
}
