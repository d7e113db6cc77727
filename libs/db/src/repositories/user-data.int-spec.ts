import type { DataSource, EntityManager } from 'typeorm';
import { createFixtureUser, createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { withTransaction } from './database-session';
import { inTenantScope } from './tenant-scope';
import { UserDataDeletedError, UserDataRepository } from './user-data.repository';

/**
 * The data epoch's fence (ADR 0036): a worker's write that holds the epoch and is under way when
 * Delete All Data starts makes the delete wait, then is deleted with the rest; a write that
 * comes after the delete is refused, even though the job read the epoch before it.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('userdata');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 }, 'user-data').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** A finished sync run, as a worker's page would write one of the user's rows. */
const writeRow = (db: DataSource | EntityManager, userId: string) =>
  inTenantScope(db, userId, (scoped) =>
    scoped.query(
      `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode, status, finished_at)
       VALUES ($1, 'etsy', '1', 'schedule', 'incremental', 'succeeded', now())`,
      [userId],
    ),
  );
const runsOf = async (userId: string) =>
  (
    await queryDatabase<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM sync_run WHERE user_id = $1`, [
      userId,
    ])
  )[0].n;

it('a write under way when the delete starts: the delete waits for it, then removes what it wrote', async () => {
  const userId = await createFixtureUser(dataSource, 'fence-first');
  const data = new UserDataRepository(dataSource);
  const epoch = (await data.epochOf(userId))!;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let holding!: () => void;
  const held = new Promise<void>((resolve) => (holding = resolve));
  const writer = withTransaction(dataSource, async (tx) => {
    await new UserDataRepository(tx).hold(userId, epoch);
    await writeRow(tx, userId);
    holding();
    await gate;
  });
  await held;
  let finished = false;
  const deletion = data.deleteAllData(userId).then((result) => ((finished = true), result));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(finished).toBe(false);
  release();
  await writer;
  const result = await deletion;
  expect(result.rows.sync_run).toBe(1);
  expect(await runsOf(userId)).toBe(0);
  expect(await data.epochOf(userId)).toBe(epoch + 1);
});

it('a write after the delete is refused, though its job read the epoch before', async () => {
  const userId = await createFixtureUser(dataSource, 'fence-after');
  const other = await createFixtureUser(dataSource, 'fence-other');
  const data = new UserDataRepository(dataSource);
  const epoch = (await data.epochOf(userId))!;
  const otherEpoch = (await data.epochOf(other))!;
  await data.deleteAllData(userId);
  await expect(
    withTransaction(dataSource, async (tx) => {
      await new UserDataRepository(tx).hold(userId, epoch);
      await writeRow(tx, userId);
    }),
  ).rejects.toBeInstanceOf(UserDataDeletedError);
  expect(await runsOf(userId)).toBe(0);
  // Another user's jobs are not fenced.
  await withTransaction(dataSource, async (tx) => {
    await new UserDataRepository(tx).hold(other, otherEpoch);
    await writeRow(tx, other);
  });
  expect(await runsOf(other)).toBe(1);
});

it('Delete Account removes the user row; a job of theirs then finds no epoch and cannot hold one', async () => {
  const userId = await createFixtureUser(dataSource, 'fence-account');
  const data = new UserDataRepository(dataSource);
  const epoch = (await data.epochOf(userId))!;
  await writeRow(dataSource, userId);
  expect(await data.deleteAccount(userId)).not.toBeNull();
  expect(await data.epochOf(userId)).toBeNull();
  expect(await runsOf(userId)).toBe(0);
  await expect(
    withTransaction(dataSource, (tx) => new UserDataRepository(tx).hold(userId, epoch)),
  ).rejects.toBeInstanceOf(UserDataDeletedError);
  expect(await data.deleteAccount(userId)).toBeNull();
});
