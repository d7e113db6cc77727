import { spawn } from 'node:child_process';
import { createDataSource } from '@pod/db';
import {
  createTestDatabase,
  deleteRedisPrefix,
  freePort,
  queryDatabase,
  REPO_ROOT,
  spawnService,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  uniqueRedisPrefix,
  waitForHttp,
  type ServiceProcess,
  type TestDatabase,
} from '@pod/testing';
import { ensureBuilt, startWorker, WORKERS } from './support/fleet';

/**
 * Security plan item 37, "migrations once": the one-shot migrate step (twice, as two deploy
 * jobs would), two gateways (each migrates at start) and one replica of every worker (each
 * waits for the schema), all started at the same moment on a database that does not exist yet.
 * Whoever creates it first wins, each migration is applied by exactly one process (the
 * advisory lock of prepare-database.ts), nothing fails, and every process turns healthy.
 * Kept to 8 processes: the plan's 3 replicas of every worker add nothing the lock would treat
 * differently, and CI shares 2 cores.
 */
jest.setTimeout(150_000);

let database: TestDatabase;
const prefix = uniqueRedisPrefix('migrate-once');
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  ensureBuilt();
  // A fresh name, then gone again: the processes below must create the database themselves.
  database = await createTestDatabase('migrate_once');
  await database.drop();
});

afterAll(async () => {
  await Promise.all(processes.splice(0).map((service) => service.stop('SIGKILL')));
  await database?.drop();
  await deleteRedisPrefix(prefix);
});

it('applies each migration once when the migrate step, gateways and workers start together on an empty database', async () => {
  const env = { DATABASE_URL: database.url, REDIS_PREFIX: prefix, APP_SECRET: TEST_APP_SECRET };
  const migrates = [1, 2].map(() => migrateStep(env));
  const gatewayPorts = await Promise.all([freePort(), freePort()]);
  const gateways = gatewayPorts.map((port, n) =>
    spawnService(`gateway-${n + 1}`, 'dist/gateway/src/main.js', {
      ...env,
      PORT: String(port),
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
    }),
  );
  const workers = await Promise.all(WORKERS.map((name) => startWorker(name, env)));
  processes.push(...gateways, ...workers);

  const migrateExits = await Promise.all(migrates);
  expect(migrateExits.map((exit) => exit.code)).toEqual([0, 0]);
  await Promise.all(
    gatewayPorts.map((port, n) =>
      waitForHttp(`http://127.0.0.1:${port}/healthz`, { process: gateways[n], timeoutMs: 90_000 }),
    ),
  );
  await Promise.all(workers.map((worker) => waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 90_000 })));

  const applied = await queryDatabase<{ name: string; times: number }>(
    database.url,
    `SELECT name, count(*)::int AS times FROM schema_migration GROUP BY name ORDER BY name`,
  );
  expect(applied.filter((row) => row.times !== 1)).toEqual([]);
  expect(applied.map((row) => row.name).sort()).toEqual((await migrationNames()).sort());
  // Whoever held the lock first applied them all; everyone after found the schema current.
  const said = migrateExits.map((exit) => exit.output);
  expect(said.filter((output) => output.includes('Applied migrations:')).length).toBeLessThanOrEqual(1);
  for (const output of said) expect(output).toMatch(/Applied migrations:|Schema is up to date\./);
  for (const service of [...gateways, ...workers]) expect(service.child.exitCode).toBeNull();
});

/** `cli.js migrate` as a deploy's one-shot step runs it: its exit code and what it printed. */
function migrateStep(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['dist/gateway/src/cli.js', 'migrate'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done) => child.once('exit', (code) => done({ code, output })));
}

/** Every migration this build knows (the data source's list), by name. */
async function migrationNames(): Promise<string[]> {
  const dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 1 },
    'migrate-once-test',
    {
      connectAs: 'login',
    },
  ).initialize();
  try {
    return dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
  } finally {
    await dataSource.destroy();
  }
}
