import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { GATEWAY_MAX_OLD_SPACE_MB } from './gateway-node-args';

/** Tests and benches spawn the gateway with the heap limit it is deployed with: one value everywhere. */
const ROOT = resolve(__dirname, '../../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

describe('the gateway heap limit', () => {
  it('is the same in npm start, npm run start:gateway and the container entrypoint', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const flag = `--max-old-space-size=${GATEWAY_MAX_OLD_SPACE_MB} dist/gateway/src/main.js`;
    expect(scripts.start).toContain(`node ${flag}`);
    expect(scripts['start:gateway']).toBe(`node ${flag}`);
    expect(read('deploy/docker/entrypoint.sh')).toContain(
      `--max-old-space-size="\${GATEWAY_MAX_OLD_SPACE_MB:-${GATEWAY_MAX_OLD_SPACE_MB}}" dist/gateway/src/main.js`,
    );
  });
});
