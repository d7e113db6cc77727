import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { queryDatabase } from '@pod/testing';
import { loadConfig } from '@pod/config';
import {
  bullConnection,
  bullPrefix,
  computeProfitsJobOptions,
  markProfitsFinished,
  PROFITS_SETTLE_GRACE_MS,
} from '@pod/queue';
import { GatewayTestBed, register, sessionCookie, uniqueEmail, type TestGateway } from './support/test-gateway';

/**
 * GET /api/sync/status `settling` (ADR 0029): true while the user's figures may still change —
 * a match run queued or running, the user's compute-profits job waiting — and false once every
 * run has finished, so the web app polls until then and no longer. No worker runs here: the
 * test puts the runs and the job where a worker would find them.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let matcherQueue: Queue;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  const config = loadConfig({ REDIS_PREFIX: bed.redisPrefix });
  matcherQueue = new Queue('matcher', { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
}, 60_000);
afterAll(async () => {
  await matcherQueue?.close();
  await bed.tearDown();
});

const settling = async (cookie: string): Promise<boolean> =>
  (await gw.app.inject({ method: 'GET', url: '/api/sync/status', headers: { cookie } })).json().settling;

async function newSeller(label: string): Promise<{ cookie: string; userId: string }> {
  const email = uniqueEmail(label);
  const cookie = sessionCookie(await register(gw.app, email));
  const [{ id }] = await queryDatabase<{ id: string }>(bed.database.url, `SELECT id FROM app_user WHERE email = $1`, [
    email,
  ]);
  return { cookie, userId: id };
}

describe('GET /api/sync/status settling', () => {
  it('is false with nothing run, true while a match run is queued or running, false once it has ended', async () => {
    const { cookie, userId } = await newSeller('settle-match');
    expect(await settling(cookie)).toBe(false);
    const [{ id: runId }] = await queryDatabase<{ id: string }>(
      bed.database.url,
      `INSERT INTO match_run (user_id, trigger) VALUES ($1, 'sync') RETURNING id`,
      [userId],
    );
    expect(await settling(cookie)).toBe(true);
    await queryDatabase(bed.database.url, `UPDATE match_run SET status = 'running', started_at = now() WHERE id = $1`, [
      runId,
    ]);
    expect(await settling(cookie)).toBe(true);
    // Ended a while ago (past the grace that covers queuing the profit run after it).
    await queryDatabase(
      bed.database.url,
      `UPDATE match_run SET status = 'succeeded', finished_at = now() - interval '1 minute' WHERE id = $1`,
      [runId],
    );
    expect(await settling(cookie)).toBe(false);
  });

  it('is true while the user’s compute-profits job waits, and not for another user’s', async () => {
    const { cookie, userId } = await newSeller('settle-profits');
    const other = await newSeller('settle-other');
    const job = await matcherQueue.add(
      'compute-profits',
      { userId, reason: 'matched' },
      { ...computeProfitsJobOptions(userId) },
    );
    expect(await settling(cookie)).toBe(true);
    expect(await settling(other.cookie)).toBe(false);
    await job.remove();
    expect(await settling(cookie)).toBe(false);
  });

  it('is true for a moment after the user’s compute-profits job finished (the mark the matcher leaves), then false', async () => {
    const { cookie, userId } = await newSeller('settle-finished');
    const other = await newSeller('settle-finished-other');
    await markProfitsFinished(matcherQueue, userId);
    expect(await settling(cookie)).toBe(true);
    expect(await settling(other.cookie)).toBe(false);
    // The mark expires by itself, within the grace.
    const redis = (await matcherQueue.client) as unknown as Redis;
    const key = matcherQueue.toKey(`profits-finished:${userId}`);
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(PROFITS_SETTLE_GRACE_MS);
    await redis.del(key);
    expect(await settling(cookie)).toBe(false);
  });
});
