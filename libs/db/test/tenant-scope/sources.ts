import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { SourceText } from './source-scan';

export const REPO_ROOT = join(__dirname, '../../../..');

/**
 * Every place that may issue SQL at run time: each library's source (but the test helpers and the
 * migrations, which run as the migrating login), the gateway and the workers. Tests are left out:
 * they inspect the database directly, as the login.
 */
export function applicationSources(): SourceText[] {
  const roots = [
    ...readdirSync(join(REPO_ROOT, 'libs'))
      .filter((name) => name !== 'testing')
      .map((name) => `libs/${name}/src`),
    'gateway/src',
    ...readdirSync(join(REPO_ROOT, 'services'))
      .filter((name) => name !== 'test')
      .map((name) => `services/${name}/src`),
  ];
  return roots
    .flatMap((root) => tsFiles(join(REPO_ROOT, root)))
    .filter((path) => !path.startsWith('libs/db/src/migrations/'))
    .map((path) => ({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') }));
}

/** The entity classes: where the tenant tables (those with a user_id column) are declared. */
export function entitySources(): SourceText[] {
  return tsFiles(join(REPO_ROOT, 'libs/db/src/entities')).map((path) => ({
    path,
    text: readFileSync(join(REPO_ROOT, path), 'utf8'),
  }));
}

function tsFiles(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = join(directory, name);
    if (statSync(full).isDirectory()) return tsFiles(full);
    const isSource = name.endsWith('.ts') && !name.endsWith('.d.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(name);
    return isSource ? [relative(REPO_ROOT, full)] : [];
  });
}
