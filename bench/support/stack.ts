import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  deleteRedisPrefix,
  freePort,
  spawnService,
  startTestStack,
  TEST_APP_SECRET,
  waitForHttp,
  type ServiceProcess,
  type TestSandbox,
  type TestStack,
  type TestStackWorker,
} from '@pod/testing';

export interface BenchStack {
  baseUrl: string;
  databaseUrl: string;
  redisPrefix: string;
  sandbox: TestSandbox;
  /** Every worker process, replicas included. */
  workers: ServiceProcess[];
  /** Stops every process, drops the database and deletes the Redis prefix's keys. Safe to call twice. */
  stop(): Promise<void>;
}

const cleanups = new Set<() => Promise<void>>();
let exiting = false;

/** Ctrl-C or a kill stops what the bench started before the bench exits. */
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (exiting) return;
    exiting = true;
    console.error(`\n${signal}: stopping the bench's processes and dropping its databases…`);
    void Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then(() => process.exit(130));
  });
}

/** Runs every registered cleanup (for a bench's fatal-error path). */
export async function cleanUpEverything(): Promise<void> {
  await Promise.allSettled([...cleanups].map((cleanup) => cleanup()));
}

/**
 * The built gateway, the built sandbox and `replicas` processes of each worker, on a fresh
 * database and Redis prefix (startTestStack plus the extra replicas, which share everything).
 * `env` goes to the gateway and every worker.
 */
export async function startBenchStack(options: {
  workers: readonly TestStackWorker[];
  replicas: number;
  env?: Record<string, string>;
  logLabel: string;
}): Promise<BenchStack> {
  const env = options.env ?? {};
  const stack: TestStack = await startTestStack(env, { sandbox: true, workers: options.workers });
  const sandbox = stack.sandbox as TestSandbox;
  const extra: ServiceProcess[] = [];
  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopped ??= (async () => {
      await Promise.allSettled(extra.map((worker) => worker.stop()));
      await stack.stop();
      keepLogs(options.logLabel, [
        stack.gateway,
        ...(stack.sandbox ? [stack.sandbox.process] : []),
        ...Object.values(stack.workers),
        ...extra,
      ]);
      await deleteRedisPrefix(stack.redisPrefix);
    })();
    cleanups.delete(stop);
    return stopped;
  };
  cleanups.add(stop);
  try {
    const shared = {
      SANDBOX_URL: sandbox.url,
      SANDBOX_ADMIN_TOKEN: sandbox.adminToken,
      DATABASE_URL: stack.database.url,
      REDIS_PREFIX: stack.redisPrefix,
      APP_SECRET: TEST_APP_SECRET,
      ...env,
    };
    for (let replica = 2; replica <= options.replicas; replica += 1) {
      for (const name of options.workers) {
        const healthPort = await freePort();
        const worker = spawnService(`${name}#${replica}`, `dist/services/${name}/src/main.js`, {
          ...shared,
          HEALTH_PORT: String(healthPort),
        });
        extra.push(worker);
        await waitForHttp(`http://127.0.0.1:${healthPort}/healthz`, { process: worker, timeoutMs: 60_000 });
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: stack.baseUrl,
    databaseUrl: stack.database.url,
    redisPrefix: stack.redisPrefix,
    sandbox,
    workers: [...Object.values(stack.workers).filter((w): w is ServiceProcess => w !== undefined), ...extra],
    stop,
  };
}

/** BENCH_LOG_DIR: every process's output, one file each, for a closer look. */
function keepLogs(label: string, processes: readonly (ServiceProcess | undefined)[]): void {
  const dir = process.env.BENCH_LOG_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const service of processes)
    if (service) writeFileSync(join(dir, `${label}-${service.name.replace(/[^a-z0-9-]/gi, '_')}.log`), service.logs());
}
