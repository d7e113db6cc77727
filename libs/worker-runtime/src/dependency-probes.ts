import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { DatabaseProbe } from '@pod/db';
import type { DependencyCheck } from './health-report';
import { shortReason, withTimeout } from '@pod/queue';

/** Each probe answers within this bound, so a hung dependency reads as down, not as a hung probe. */
export const PROBE_TIMEOUT_MS = 1_000;

export async function probeRedis(redis: Redis, timeoutMs = PROBE_TIMEOUT_MS): Promise<DependencyCheck> {
  try {
    const answer = await withTimeout(redis.ping(), timeoutMs);
    return answer === 'PONG' ? { status: 'up' } : { status: 'down', reason: `unexpected PING answer ${answer}` };
  } catch (error) {
    return { status: 'down', reason: shortReason(error) };
  }
}

/** `SELECT 1` on the pool; before the first successful connect there is nothing to ask. */
export async function probePostgres(dataSource: DataSource, timeoutMs = PROBE_TIMEOUT_MS): Promise<DependencyCheck> {
  if (!dataSource.isInitialized) return { status: 'down', reason: 'not connected yet' };
  try {
    await withTimeout(new DatabaseProbe(dataSource).ping(), timeoutMs);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', reason: shortReason(error) };
  }
}
