import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  freePort,
  GATEWAY_NODE_ARGS,
  REPO_ROOT,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  waitForHttp,
} from '@pod/testing';

export interface GatewayProcess {
  baseUrl: string;
  pid: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface GatewayOptions {
  databaseUrl: string;
  redisPrefix: string;
  /** Its JSON request log (appended). */
  logFile: string;
  /** The built entry point, relative to the repository (default: this checkout's build). */
  entry?: string;
  /** Extra node options (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** An IPC channel to the child (the soak's heap probe). */
  ipc?: boolean;
}

/**
 * A built gateway as the load bench runs it: NODE_ENV=production, every request logged, its
 * JSON lines going to a file as a deployment's would go to a collector, on loopback.
 */
export async function startGateway(options: GatewayOptions): Promise<GatewayProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFd = openSync(options.logFile, 'a');
  const entry = resolve(REPO_ROOT, options.entry ?? 'dist/gateway/src/main.js');
  const child = spawn(process.execPath, [...GATEWAY_NODE_ARGS, ...(options.nodeArgs ?? []), entry], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      ...gatewayEnvironment(options.databaseUrl, options.redisPrefix),
      PORT: String(port),
      PUBLIC_ORIGIN: baseUrl,
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      SUPPORT_EMAIL: 'help@podprofit.test',
    },
    stdio: options.ipc ? ['ignore', logFd, logFd, 'ipc'] : ['ignore', logFd, logFd],
  });
  closeSync(logFd);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitForHttp(`${baseUrl}/healthz`, { timeoutMs: 60_000 });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nthe gateway's log: ${options.logFile}`);
  }
  return { baseUrl, pid: child.pid ?? 0, child, stop };
}

/** What the gateway and the workers of a bench stack share. */
export function gatewayEnvironment(databaseUrl: string, redisPrefix: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
  };
}
