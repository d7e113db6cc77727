import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from './data-source';
import { prepareDatabase } from './prepare-database';

/**
 * The entities and the migrations describe one schema. After every migration has run on an
 * empty database, TypeORM must find nothing to change for the entities: the SQL that
 * `synchronize` would run is empty. A column, type, nullability, default, index, unique or
 * foreign key declared on one side only fails here, naming the statement.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('drift');
  await prepareDatabase({ DATABASE_URL: database.url });
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

it('the migrated schema is exactly what the entities declare', async () => {
  const dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'schema-drift', {
    connectAs: 'login',
  }).initialize();
  try {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  } finally {
    await dataSource.destroy();
  }
});
