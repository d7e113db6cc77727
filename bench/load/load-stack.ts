import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  deleteRedisPrefix,
  freePort,
  REPO_ROOT,
  spawnService,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  uniqueRedisPrefix,
  waitForHttp,
  type ServiceProcess,
} from '@pod/testing';
import { HEAP_PROBE_NODE_ARGS, HeapProbe } from './heap-probe';

const WORKERS = ['matcher', 'etsy-sync', 'printify-sync', 'fx-rate'] as const;

/** A process of the stack whose memory the soak samples. */
export interface StackProcess {
  name: string;
  pid: number;
  /** Its Prometheus text (gateway: /api/admin/metrics; a worker: /metrics on its health port). */
  metricsUrl: string;
  metricsToken?: string;
  /** Its memory after a full garbage collection, on request (the soak's leak measure). */
  probe: HeapProbe;
}

export interface LoadStack {
  baseUrl: string;
  redisPrefix: string;
  processes: StackProcess[];
  gatewayLog: string;
  stop(): Promise<void>;
}

/**
 * The built gateway in production mode (NODE_ENV=production, request logging on, its JSON lines
 * going to a file as a deployment's would go to a collector, not through the bench's memory) and
 * one process of each worker, on the seeded database and a fresh Redis prefix, all on loopback.
 * The workers' output is small (a line per job) and stays in memory for an error report. Every
 * process runs with the heap probe (heap-probe-preload.ts) and an IPC channel to this one, so the
 * soak can read what each holds after a full garbage collection.
 */
export async function startLoadStack(databaseUrl: string): Promise<LoadStack> {
  const logDir = process.env.BENCH_LOG_DIR ?? join(tmpdir(), `podprofit-load-${Date.now()}`);
  mkdirSync(logDir, { recursive: true });
  const gatewayLog = resolve(logDir, 'gateway.log');
  const redisPrefix = uniqueRedisPrefix('load');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const shared = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
  };
  const logFd = openSync(gatewayLog, 'a');
  const gateway: ChildProcess = spawn(
    process.execPath,
    [...HEAP_PROBE_NODE_ARGS, resolve(REPO_ROOT, 'dist/gateway/src/main.js')],
    {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        ...shared,
        PORT: String(port),
        PUBLIC_ORIGIN: baseUrl,
        OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
        SUPPORT_EMAIL: 'help@podprofit.test',
      },
      stdio: ['ignore', logFd, logFd, 'ipc'],
    },
  );
  closeSync(logFd);
  const gatewayExited = new Promise<void>((done) => gateway.once('exit', () => done()));
  const workers: Array<{ service: ServiceProcess; healthPort: number }> = [];
  const stop = async () => {
    await Promise.allSettled(workers.map(({ service }) => service.stop()));
    if (gateway.exitCode === null && gateway.signalCode === null) gateway.kill('SIGTERM');
    const timer = setTimeout(() => gateway.kill('SIGKILL'), 15_000);
    await gatewayExited;
    clearTimeout(timer);
    await deleteRedisPrefix(redisPrefix);
  };
  try {
    await waitForHttp(`${baseUrl}/healthz`, { timeoutMs: 60_000 }).catch((error: Error) => {
      throw new Error(`${error.message}\nthe gateway's log: ${gatewayLog}`);
    });
    for (const name of WORKERS) {
      const healthPort = await freePort();
      const service = spawnService(
        name,
        `dist/services/${name}/src/main.js`,
        { ...shared, HEALTH_PORT: String(healthPort) },
        { nodeArgs: HEAP_PROBE_NODE_ARGS, ipc: true },
      );
      workers.push({ service, healthPort });
      await waitForHttp(`http://127.0.0.1:${healthPort}/healthz`, { process: service, timeoutMs: 60_000 });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl,
    redisPrefix,
    gatewayLog,
    processes: [
      {
        name: 'gateway',
        pid: gateway.pid ?? 0,
        metricsUrl: `${baseUrl}/api/admin/metrics`,
        metricsToken: TEST_OPERATOR_TOKEN,
        probe: new HeapProbe(gateway),
      },
      ...workers.map(({ service, healthPort }) => ({
        name: service.name,
        pid: service.child.pid ?? 0,
        metricsUrl: `http://127.0.0.1:${healthPort}/metrics`,
        probe: new HeapProbe(service.child),
      })),
    ],
    stop,
  };
}
