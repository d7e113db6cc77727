import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  deleteRedisPrefix,
  freePort,
  spawnService,
  TEST_OPERATOR_TOKEN,
  uniqueRedisPrefix,
  waitForHttp,
  type ServiceProcess,
} from '@pod/testing';
import { gatewayEnvironment, startGateway } from './gateway-process';
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
 * The built gateway in production mode (gateway-process.ts: request logging on, to a file, not
 * through the bench's memory) and one process of each worker, on the seeded database and a fresh
 * Redis prefix, all on loopback. The workers' output is small (a line per job) and stays in
 * memory for an error report. Every process runs with the heap probe (heap-probe-preload.ts) and
 * an IPC channel to this one, so the soak can read what each holds after a full garbage collection.
 */
export async function startLoadStack(databaseUrl: string): Promise<LoadStack> {
  const logDir = process.env.BENCH_LOG_DIR ?? join(tmpdir(), `podprofit-load-${Date.now()}`);
  mkdirSync(logDir, { recursive: true });
  const gatewayLog = resolve(logDir, 'gateway.log');
  const redisPrefix = uniqueRedisPrefix('load');
  const shared = gatewayEnvironment(databaseUrl, redisPrefix);
  const gateway = await startGateway({
    databaseUrl,
    redisPrefix,
    logFile: gatewayLog,
    nodeArgs: HEAP_PROBE_NODE_ARGS,
    ipc: true,
  });
  const workers: Array<{ service: ServiceProcess; healthPort: number }> = [];
  const stop = async () => {
    await Promise.allSettled(workers.map(({ service }) => service.stop()));
    await gateway.stop();
    await deleteRedisPrefix(redisPrefix);
  };
  try {
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
    baseUrl: gateway.baseUrl,
    redisPrefix,
    gatewayLog,
    processes: [
      {
        name: 'gateway',
        pid: gateway.pid,
        metricsUrl: `${gateway.baseUrl}/api/admin/metrics`,
        metricsToken: TEST_OPERATOR_TOKEN,
        probe: new HeapProbe(gateway.child),
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
