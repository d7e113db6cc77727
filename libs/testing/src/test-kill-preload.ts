import { writeSync } from 'node:fs';
import { installTestKillHook } from './test-kill-hook';

/**
 * Loaded by `node --require` ahead of a built worker when a test sets POD_TEST_KILL_AT (see
 * spawnService): the worker's own code knows nothing of the hook. Built apart from the server
 * (tsconfig.test-hooks.json, dist/test-hooks) and left out of the image.
 */
const armed = installTestKillHook();
if (armed) {
  writeSync(2, `${JSON.stringify({ event: 'test.kill_hook_armed', ...armed, pid: process.pid })}\n`);
}
