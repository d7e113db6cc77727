import type { DataSource } from 'typeorm';
import { createFixtureUser, createTestDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { AnalyticsRepository } from './analytics.repository';
import { withTenant } from './tenant-scope';

/**
 * The Analytics composition read runs without JIT: at 100k orders PostgreSQL spent 313 of its
 * 410 ms compiling the plan (analytics.repository.ts). Read inside a caller's transaction, whose
 * settings are the read's own, so `jit` can be seen after it; it is on before it (the server's
 * default), so the check is of the read, not of the server.
 */
let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('analytics_jit');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'analytics-jit',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

it('reads the composition with JIT off', async () => {
  const owner = await createFixtureUser(dataSource, 'analytics-jit');
  const jit = await withTenant(dataSource, owner, async (manager) => {
    const [before] = (await manager.query('SHOW jit')) as { jit: string }[];
    const composition = await new AnalyticsRepository(manager).composition(owner, 'USD', new Date(0));
    const [after] = (await manager.query('SHOW jit')) as { jit: string }[];
    return { before: before.jit, after: after.jit, costsByKind: composition.costsByKind };
  });
  expect(jit).toEqual({ before: 'on', after: 'off', costsByKind: [] });
});
