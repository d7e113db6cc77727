import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { execSync } from 'node:child_process';
import Redis from 'ioredis';
import {
  deleteRedisPrefix,
  freePort,
  REPO_ROOT,
  spawnService,
  TEST_APP_SECRET,
  TEST_KILL_PRELOAD,
  waitForHttp,
  type ServiceProcess,
} from '@pod/testing';

export const WORKERS = ['etsy-sync', 'printify-sync', 'matcher', 'fx-rate'] as const;
export type WorkerName = (typeof WORKERS)[number];

/** Builds the server once if a worker entry point is missing (npm test builds in pretest). */
export function ensureBuilt(): void {
  const missing = WORKERS.some((name) => !existsSync(resolve(REPO_ROOT, `dist/services/${name}/src/main.js`)));
  if (missing || !existsSync(resolve(REPO_ROOT, 'dist/gateway/src/main.js')) || !existsSync(TEST_KILL_PRELOAD)) {
    execSync('npm run build:server', { cwd: REPO_ROOT, stdio: 'inherit' });
  }
}

export interface WorkerProcess extends ServiceProcess {
  healthUrl: string;
}

/** Starts a built worker as its own OS process on a free health port. */
export async function startWorker(name: WorkerName, env: Record<string, string>): Promise<WorkerProcess> {
  const port = await freePort();
  const service = spawnService(name, `dist/services/${name}/src/main.js`, {
    APP_SECRET: TEST_APP_SECRET,
    HEALTH_PORT: String(port),
    ...env,
  });
  return Object.assign(service, { healthUrl: `http://127.0.0.1:${port}/healthz` });
}

export async function readHealth(worker: WorkerProcess): Promise<{ status: number; body: HealthBody }> {
  const response = await fetch(worker.healthUrl, { signal: AbortSignal.timeout(3_000) });
  return { status: response.status, body: (await response.json()) as HealthBody };
}

export interface HealthBody {
  status: string;
  service: string;
  failing: string[];
  checks: {
    postgres: { status: string; reason?: string };
    redis: { status: string; reason?: string };
    queue: { name: string; running: boolean; paused: boolean; concurrency: number };
  };
}

export { deleteRedisPrefix, waitForHttp };

/** Polls `probe` (pausing `intervalMs` between tries) until it returns a value, or fails after `timeoutMs`. */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`);
}

/** Times how long a process takes to exit after `signal`. */
export async function stopAndTime(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 30_000) {
  const started = Date.now();
  const result = await service.stop(signal, killAfterMs);
  return { ...result, elapsedMs: Date.now() - started };
}

/** Job ids each process logged as completed (from the workers' JSON log lines). */
export function completedJobIds(service: ServiceProcess): string[] {
  return service
    .logs()
    .split('\n')
    .filter((line) => line.includes('"event":"job.completed"'))
    .map((line) => (JSON.parse(line) as { jobId: string }).jobId);
}

/** A throwaway redis-server on its own port, keeping nothing on disk, for outage tests. */
export interface DedicatedRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  kill(): Promise<void>;
}

export async function dedicatedRedis(): Promise<DedicatedRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      const client = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      client.on('error', () => undefined);
      await pollUntil(
        'dedicated redis-server answers',
        async () => {
          if (client.status !== 'ready') await client.connect().catch(() => undefined);
          return (await client.ping()) === 'PONG' ? true : undefined;
        },
        10_000,
      );
      client.disconnect();
    },
    async kill() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
