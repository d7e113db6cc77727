import { DataSource } from 'typeorm';
import type { AppConfig } from '@pod/config';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';

type DbConfig = Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'>;

/** The one TypeORM data source definition, shared by the gateway, the workers and the CLI. */
export function createDataSource(config: DbConfig, applicationName = 'podprofit'): DataSource {
  return new DataSource({
    type: 'postgres',
    url: config.DATABASE_URL,
    entities: ALL_ENTITIES,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'schema_migration',
    // Primary keys default to gen_random_uuid() (built into PostgreSQL 13+); TypeORM must not try to install an extension.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName,
    extra: {
      max: config.DATABASE_POOL_SIZE,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      // A hung query must not hold a pooled connection (and a request) forever.
      statement_timeout: 30_000,
    },
  });
}
