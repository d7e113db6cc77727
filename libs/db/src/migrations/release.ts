import type { DataSource } from 'typeorm';
import { ALL_MIGRATIONS } from './index';

/**
 * The last migration of the previous release: every migration after it is the latest release's.
 * Moved forward at each release (to the newest migration the release ships), so the migrations
 * bench (`npm run bench:migrations`, security test plan item 37) upgrades from the schema
 * production actually has, and release.int-spec.ts holds the latest release's `down()` to
 * leaving exactly that schema.
 */
export const PREVIOUS_RELEASE_LAST_MIGRATION = 'UserDataEpoch1765701000000';

/** The migrations of the previous release and those of the latest, each in order. */
export function migrationsByRelease(): { previous: typeof ALL_MIGRATIONS; latest: typeof ALL_MIGRATIONS } {
  const boundary = ALL_MIGRATIONS.findIndex((migration) => migration.name === PREVIOUS_RELEASE_LAST_MIGRATION);
  if (boundary < 0) throw new Error(`${PREVIOUS_RELEASE_LAST_MIGRATION} is not a migration`);
  return { previous: ALL_MIGRATIONS.slice(0, boundary + 1), latest: ALL_MIGRATIONS.slice(boundary + 1) };
}

/**
 * Runs the latest release's `down()`s, newest first, each in its own transaction (as the
 * migrate step runs their `up()`s), leaving the previous release's schema; the data source must
 * connect as the login that owns the tables. Returns the reverted migrations' names.
 */
export async function revertToPreviousRelease(dataSource: DataSource): Promise<string[]> {
  const reverted: string[] = [];
  for (;;) {
    const [last] = (await dataSource.query(
      `SELECT name FROM ${dataSource.options.migrationsTableName ?? 'migrations'} ORDER BY id DESC LIMIT 1`,
    )) as { name: string }[];
    if (!last) throw new Error('no migration has run');
    if (last.name === PREVIOUS_RELEASE_LAST_MIGRATION) return reverted;
    if (!migrationsByRelease().latest.some((migration) => migration.name === last.name))
      throw new Error(`${last.name} is not a migration of the latest release`);
    await dataSource.undoLastMigration({ transaction: 'each' });
    reverted.push(last.name);
  }
}
