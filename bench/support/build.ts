import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@pod/testing';

/** The built entry points a bench spawns. */
const ENTRY_POINTS = [
  'gateway',
  'services/sandbox',
  'services/etsy-sync',
  'services/printify-sync',
  'services/matcher',
  'services/fx-rate',
].map((app) => `dist/${app}/src/main.js`);
const SOURCE_ROOTS = ['gateway/src', 'services', 'libs'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'test') newest = Math.max(newest, newestSource(path));
    } else if (entry.name.endsWith('.ts') && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(entry.name)) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/**
 * Runs `npm run build:server` when an entry point is missing or older than any server source
 * file, so a bench never measures stale code.
 */
export function ensureFreshServerBuild(): void {
  const outputs = ENTRY_POINTS.map((file) => resolve(REPO_ROOT, file));
  const missing = outputs.some((file) => !existsSync(file));
  const builtAt = missing ? 0 : Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const sourcesAt = Math.max(...SOURCE_ROOTS.map((dir) => newestSource(resolve(REPO_ROOT, dir))));
  if (missing || sourcesAt > builtAt) {
    console.log(
      missing
        ? 'The server is not built: npm run build:server'
        : 'The server build is older than its sources: npm run build:server',
    );
    execSync('npm run build:server', { cwd: REPO_ROOT, stdio: 'inherit' });
  }
}
