import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Integration and browser tests run the built processes. `npm test` builds first (pretest);
 * a direct `jest --selectProjects …` builds here when dist/ is missing.
 */
export default function globalSetup(): void {
  const root = resolve(__dirname, '../../..');
  if (!existsSync(resolve(root, 'dist/gateway/src/main.js'))) {
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
}
