import { DataSource } from 'typeorm';
import type { AppConfig } from '@pod/config';
import { ALL_ENTITIES } from './entities';
import { ALL_MIGRATIONS } from './migrations';

/** The role the runtime pools take (created by the migration 1764900000000-tenant-scope, ADR 0015). */
export const DEFAULT_APP_ROLE = 'podprofit_app';

type DbConfig = Pick<AppConfig, 'DATABASE_URL' | 'DATABASE_POOL_SIZE'> & Partial<Pick<AppConfig, 'DATABASE_APP_ROLE'>>;

export interface DataSourceOptions {
  /**
   * `app` (the default): every connection takes DATABASE_APP_ROLE at its start (PostgreSQL's
   * startup option `role`), so the process queries as a role row-level security applies to.
   * `login`: the DATABASE_URL login as it is — migrations, and tests inspecting the database.
   */
  connectAs?: 'app' | 'login';
}

/** The one TypeORM data source definition, shared by the gateway, the workers and the CLI. */
export function createDataSource(
  config: DbConfig,
  applicationName = 'podprofit',
  options: DataSourceOptions = {},
): DataSource {
  const role = options.connectAs === 'login' ? null : runtimeRoleName(config.DATABASE_APP_ROLE);
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
      // Set at connection start, before any query: no pooled connection ever runs as the login.
      ...(role ? { options: `-c role=${role}` } : {}),
    },
  });
}

/** The role runtime connections take, or null for the login's own (`none`). Only plain names reach the startup options. */
export function runtimeRoleName(configured: string | undefined): string | null {
  const role = configured ?? DEFAULT_APP_ROLE;
  if (role === 'none') return null;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role))
    throw new Error('DATABASE_APP_ROLE must be a plain lower-case role name or none');
  return role;
}
