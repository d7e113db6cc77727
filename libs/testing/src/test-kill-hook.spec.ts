import { isCountedRedisCommand, isPgWrite, parseKillAt } from './fault-points';
import { installTestKillHook } from './test-kill-hook';

describe('the failure-point sweep hook (test only)', () => {
  it('counts statements that change PostgreSQL, and COMMIT, as writes', () => {
    for (const sql of [
      'INSERT INTO x VALUES (1)',
      '  update sync_run SET a = 1',
      'DELETE FROM x',
      'COMMIT',
      'WITH moved AS (UPDATE x SET a = 1 RETURNING *) SELECT * FROM moved',
    ])
      expect(isPgWrite(sql)).toBe(true);
    for (const sql of [
      'SELECT 1',
      'START TRANSACTION',
      'ROLLBACK',
      'ANALYZE etsy_receipt',
      'WITH t AS (SELECT 1) SELECT * FROM t',
    ])
      expect(isPgWrite(sql)).toBe(false);
  });

  it('leaves connection upkeep and blocking waits out of the Redis count', () => {
    expect(isCountedRedisCommand('evalsha')).toBe(true);
    expect(isCountedRedisCommand('hset')).toBe(true);
    for (const name of ['ping', 'INFO', 'client', 'bzpopmin', 'subscribe'])
      expect(isCountedRedisCommand(name)).toBe(false);
  });

  it('parses <kind>:<k> and refuses anything else', () => {
    expect(parseKillAt(undefined)).toBeNull();
    expect(parseKillAt('http:7')).toEqual({ kind: 'http', at: 7 });
    expect(parseKillAt('pg-write:1')).toEqual({ kind: 'pg-write', at: 1 });
    for (const bad of ['http:0', 'disk:3', 'redis', 'redis:-1', 'redis:1e3'])
      expect(() => parseKillAt(bad)).toThrow(/POD_TEST_KILL_AT/);
  });

  it('is off without the variable and refused outside NODE_ENV=test', () => {
    expect(installTestKillHook({})).toBeNull();
    expect(() => installTestKillHook({ POD_TEST_KILL_AT: 'http:3', NODE_ENV: 'production' })).toThrow(
      /refused unless NODE_ENV=test/,
    );
  });
});
