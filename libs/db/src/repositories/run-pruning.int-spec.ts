import type { DataSource } from 'typeorm';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { MATCH_RUNS_KEPT, MatchRunsRepository } from './match-runs.repository';
import { SYNC_RUNS_KEPT, SyncRunsRepository } from './sync-runs.repository';
import { UsersRepository } from './users.repository';

/**
 * match_run and sync_run keep a bounded history: starting a run deletes the user's finished
 * runs past the newest few, never an active run nor another user's or provider's.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('runprune');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 },
    'run-pruning',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

async function aUser(): Promise<string> {
  const user = await new UsersRepository(dataSource).create({
    email: `prune-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'R',
    lastName: 'S',
  });
  if (!user) throw new Error('no user');
  return user.id;
}

/** `count` finished runs, the i-th created i hours ago (superuser: past the row policies). */
const oldMatchRuns = (userId: string, count: number) =>
  queryDatabase(
    database.url,
    `INSERT INTO match_run (user_id, trigger, status, created_at, finished_at)
     SELECT $1, 'user', CASE WHEN i % 2 = 0 THEN 'succeeded' ELSE 'failed' END, now() - i * interval '1 hour', now() - i * interval '1 hour'
     FROM generate_series(1, $2::int) i`,
    [userId, count],
  );
const oldSyncRuns = (userId: string, provider: string, count: number) =>
  queryDatabase(
    database.url,
    `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode, status, created_at, finished_at)
     SELECT $1, $2, '1', 'schedule', 'incremental', CASE WHEN i % 3 = 0 THEN 'interrupted' ELSE 'succeeded' END, now() - i * interval '1 hour', now() - i * interval '1 hour'
     FROM generate_series(1, $3::int) i`,
    [userId, provider, count],
  );
const ages = async (table: 'match_run' | 'sync_run', userId: string, extra = '') =>
  (
    await queryDatabase<{ hours: number }>(
      database.url,
      `SELECT round(extract(epoch FROM now() - created_at) / 3600)::int AS hours FROM ${table} WHERE user_id = $1 ${extra} ORDER BY created_at DESC`,
      [userId],
    )
  ).map((row) => row.hours);

describe('match_run history', () => {
  it(`queuing a run keeps the newest ${MATCH_RUNS_KEPT} runs of the user (the new one among them) and no other user's are touched`, async () => {
    const [userId, other] = [await aUser(), await aUser()];
    await oldMatchRuns(userId, MATCH_RUNS_KEPT + 15);
    await oldMatchRuns(other, MATCH_RUNS_KEPT + 15);
    const { run, created } = await new MatchRunsRepository(dataSource).queueOrGetQueued(userId, 'user');
    expect(created).toBe(true);
    const kept = await ages('match_run', userId);
    expect(kept).toEqual([0, ...Array.from({ length: MATCH_RUNS_KEPT - 1 }, (_, i) => i + 1)]);
    expect(await queryDatabase(database.url, `SELECT id FROM match_run WHERE id = $1`, [run.id])).toHaveLength(1);
    expect(await ages('match_run', other)).toHaveLength(MATCH_RUNS_KEPT + 15);
  });

  it('never deletes a running run, however old', async () => {
    const userId = await aUser();
    await queryDatabase(
      database.url,
      `INSERT INTO match_run (user_id, trigger, status, created_at) VALUES ($1, 'user', 'running', now() - interval '1000 hours')`,
      [userId],
    );
    await oldMatchRuns(userId, MATCH_RUNS_KEPT + 5);
    await new MatchRunsRepository(dataSource).queueOrGetQueued(userId, 'sync');
    expect(await ages('match_run', userId, `AND status = 'running'`)).toEqual([1000]);
    expect(await ages('match_run', userId)).toHaveLength(MATCH_RUNS_KEPT + 1);
  });
});

describe('sync_run history', () => {
  it(`starting a run keeps the newest ${SYNC_RUNS_KEPT} runs of that user and provider; the other provider's stay`, async () => {
    const userId = await aUser();
    await oldSyncRuns(userId, 'etsy', SYNC_RUNS_KEPT + 30);
    await oldSyncRuns(userId, 'printify', SYNC_RUNS_KEPT + 30);
    await queryDatabase(
      database.url,
      `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode, status, created_at) VALUES ($1, 'etsy', '1', 'user', 'incremental', 'waiting_for_quota', now() - interval '1000 hours')`,
      [userId],
    );
    const runs = new SyncRunsRepository(dataSource);
    // The active run is returned and nothing is inserted, so nothing is pruned yet.
    expect(
      (await runs.startOrGetActive({ userId, provider: 'etsy', shopId: '1', trigger: 'user', mode: 'incremental' }))
        .created,
    ).toBe(false);
    expect(await ages('sync_run', userId, `AND provider = 'etsy'`)).toHaveLength(SYNC_RUNS_KEPT + 31);
    await queryDatabase(
      database.url,
      `UPDATE sync_run SET status = 'failed' WHERE user_id = $1 AND status = 'waiting_for_quota'`,
      [userId],
    );
    expect(
      (await runs.startOrGetActive({ userId, provider: 'etsy', shopId: '1', trigger: 'user', mode: 'incremental' }))
        .created,
    ).toBe(true);
    expect(await ages('sync_run', userId, `AND provider = 'etsy'`)).toEqual([
      0,
      ...Array.from({ length: SYNC_RUNS_KEPT - 1 }, (_, i) => i + 1),
    ]);
    expect(await ages('sync_run', userId, `AND provider = 'printify'`)).toHaveLength(SYNC_RUNS_KEPT + 30);
  });

  it('never deletes an active run, however old', async () => {
    const userId = await aUser();
    await queryDatabase(
      database.url,
      `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode, status, created_at) VALUES ($1, 'printify', '1', 'user', 'incremental', 'running', now() - interval '1000 hours')`,
      [userId],
    );
    await oldSyncRuns(userId, 'etsy', SYNC_RUNS_KEPT + 5);
    await new SyncRunsRepository(dataSource).startOrGetActive({
      userId,
      provider: 'etsy',
      shopId: '1',
      trigger: 'user',
      mode: 'incremental',
    });
    expect(await ages('sync_run', userId, `AND provider = 'printify'`)).toEqual([1000]);
    expect(await ages('sync_run', userId, `AND provider = 'etsy'`)).toHaveLength(SYNC_RUNS_KEPT);
  });
});
