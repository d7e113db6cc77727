import type { DataSource } from 'typeorm';
import { createDataSource } from '@pod/db';

/**
 * Work on a database as the login that owns the tables (as migrations run, and as tests and
 * benches read what row-level security would hide), on a data source of its own closed after.
 */
export async function withLoginDataSource<T>(
  url: string,
  label: string,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = await createDataSource({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2 }, label, {
    connectAs: 'login',
  }).initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
