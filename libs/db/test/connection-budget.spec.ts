import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * Security plan item 37, "connection budget": at 3 replicas of the gateway and of every worker,
 * the PostgreSQL pools of docker-compose.yml and of the Helm chart's defaults sum below
 * max_connections, with the migrate step, and a rollout's surge for Helm, counted. The sum is
 * only true if each process opens one pool of DATABASE_POOL_SIZE: the last test pins every
 * place that opens PostgreSQL connections, so a new one must be counted in deploy/operating.md.
 */
const ROOT = resolve(__dirname, '../../..');
const REPLICAS = 3;
const WORKERS = ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'];
/** PostgreSQL's superuser_reserved_connections default: connections an app login cannot take. */
const SUPERUSER_RESERVED = 3;
/** prepareDatabase's own pool (libs/db/src/prepare-database.ts): the lock holder and the migration runner. */
const MIGRATE_POOL = 2;

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the PostgreSQL connection budget at 3 replicas everywhere', () => {
  it('docker compose: the gateway and every worker × 3, plus the migrate step, stay below max_connections', () => {
    const compose = read('docker-compose.yml');
    const services = blocksUnder(compose, 'services');
    // The app processes read the shared x-app-env (DATABASE_URL, DATABASE_POOL_SIZE).
    const opensPool = Object.keys(services).filter(
      (name) => name !== 'migrate' && services[name].includes('<<: *app-env'),
    );
    expect(opensPool.sort()).toEqual(['gateway', ...WORKERS].sort());
    const pool = Number(/DATABASE_POOL_SIZE: \$\{DATABASE_POOL_SIZE:-(\d+)\}/.exec(compose)?.[1]);
    expect(pool).toBe(5);
    // No `-c max_connections=…`: PostgreSQL's default of 100 applies.
    expect(services.postgres).not.toMatch(/max_connections=/);
    const total = opensPool.length * REPLICAS * pool + MIGRATE_POOL;
    expect(total).toBe(77);
    expect(total).toBeLessThan(100 - SUPERUSER_RESERVED);
  });

  it('Helm: 3 replicas of every Deployment stay within maxConnections − reservedConnections, which holds the rest', () => {
    const values = read('deploy/helm/podprofit/values.yaml');
    const pool = Number(/^ {2}databasePoolSize: (\d+)$/m.exec(values)?.[1]);
    const maxConnections = Number(/^ {2}maxConnections: (\d+)$/m.exec(values)?.[1]);
    const reservedConnections = Number(/^ {2}reservedConnections: (\d+)$/m.exec(values)?.[1]);
    expect([pool, maxConnections, reservedConnections]).toEqual([5, 100, 20]);
    const workers = blocksUnder(values, 'workers');
    expect(Object.keys(workers).sort()).toEqual([...WORKERS].sort());
    // No worker overrides the pool by default (a `databasePoolSize:` left uncommented would).
    for (const block of Object.values(workers)) expect(block).not.toMatch(/^ {4}databasePoolSize:/m);
    const processes = (REPLICAS + WORKERS.length * REPLICAS) * pool;
    // The chart's render-time check (validateConnectionBudget in templates/_helpers.tpl) ...
    expect(processes).toBe(75);
    expect(processes).toBeLessThanOrEqual(maxConnections - reservedConnections);
    // ... and what the reserve must hold: one surge gateway during a rollout (worker Deployments
    // replace pods without one), the migrate Job (alone, before the rollout) and the superusers'.
    expect(pool + MIGRATE_POOL + SUPERUSER_RESERVED).toBeLessThanOrEqual(reservedConnections);
  });

  it('every process opens one pool of DATABASE_POOL_SIZE; nothing else opens PostgreSQL connections', () => {
    const opens = sourceFiles(['gateway/src', 'services', 'libs'])
      .filter((path) => !/\.(int-)?spec\.ts$|\/test\/|libs\/testing\/|services\/sandbox\//.test(path))
      .flatMap((path) =>
        [...read(path).matchAll(/new (?:Client|Pool)\(|createDataSource\(/g)].map(() =>
          relative(ROOT, join(ROOT, path)),
        ),
      )
      .filter((path) => path !== 'libs/db/src/data-source.ts');
    // The gateway's and each worker's pool; prepareDatabase's short-lived pool and its one client
    // to the `postgres` database (before the process's own pool opens); the operator's
    // reencrypt-tokens run (a one-shot process, like migrate). A new entry here is a new line in
    // the budget of deploy/operating.md.
    expect(opens.sort()).toEqual(
      [
        'gateway/src/cli.ts',
        'gateway/src/core/core.module.ts',
        'libs/db/src/prepare-database.ts',
        'libs/db/src/prepare-database.ts',
        'libs/worker-runtime/src/run-worker.ts',
      ].sort(),
    );
    expect(read('libs/db/src/prepare-database.ts')).toContain(`DATABASE_POOL_SIZE: ${MIGRATE_POOL}`);
    expect(read('libs/db/src/data-source.ts')).toMatch(/max: config\.DATABASE_POOL_SIZE/);
  });
});

/**
 * The two-space-indented entries of a top-level YAML key, each with its text (enough for these
 * two files; the repository has no YAML parser and needs none).
 */
function blocksUnder(yaml: string, key: string): Record<string, string> {
  const lines = yaml.split('\n');
  const start = lines.indexOf(`${key}:`);
  if (start < 0) throw new Error(`no top-level ${key}:`);
  const blocks: Record<string, string> = {};
  let current: string | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const entry = /^ {2}([a-z][a-z0-9-]*):\s*$/.exec(line);
    if (entry) current = entry[1];
    else if (current) blocks[current] = `${blocks[current] ?? ''}${line}\n`;
  }
  return blocks;
}

function sourceFiles(dirs: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir))) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const path = join(dir, entry);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) out.push(path);
    }
  };
  dirs.forEach(walk);
  return out;
}
