import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * The sandbox is written from the integrations reference alone: it must share no code with the
 * provider clients (no mappers, payload types or fixtures), so a client's mistake cannot be
 * mirrored here and pass unseen. Only process plumbing (@pod/config, @pod/observability) and,
 * in tests, @pod/testing may be imported.
 */
const ROOT = resolve(__dirname, '..');
const ALLOWED_POD = new Set(['@pod/config', '@pod/observability', '@pod/testing']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('sandbox import boundaries', () => {
  it('imports nothing from the clients, the domain, the contracts or other applications', () => {
    const offences: string[] = [];
    for (const file of files(ROOT)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)) {
        const spec = match[1];
        const isTest = /\.(spec|int-spec)\.ts$/.test(file) || file.includes(`${join('test', 'support')}`);
        const podOk = !spec.startsWith('@pod/') || (ALLOWED_POD.has(spec) && (spec !== '@pod/testing' || isTest));
        const outside = spec.startsWith('.') && !resolve(file, '..', spec).startsWith(ROOT);
        const forbiddenPath = /libs\/(integrations|domain|contracts|connections)|gateway\//.test(spec);
        if (!podOk || outside || forbiddenPath) offences.push(`${relative(ROOT, file)}: ${spec}`);
      }
    }
    expect(offences).toEqual([]);
  });
});
