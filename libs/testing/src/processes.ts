import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { TEST_KILL_ENV } from './fault-points';

/**
 * The repository's root: the nearest folder above this file holding tsconfig.build.json, so it
 * is the same whether this runs from source (Jest) or compiled elsewhere (dist/bench/libs/…).
 */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(resolve(dir, 'tsconfig.build.json'))) return dir;
    if (dirname(dir) === dir) return resolve(__dirname, '../../..');
  }
}

export const REPO_ROOT = findRepoRoot(__dirname);

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Everything the process printed so far (stdout and stderr). */
  logs(): string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnServiceOptions {
  /** Node.js options ahead of the script (a bench's `--expose-gc --require <probe>`). */
  nodeArgs?: string[];
  /** Opens an IPC channel to the child (`child.send`), for a preloaded probe to answer on. */
  ipc?: boolean;
}

/** The built kill hook (npm run build:server; tsconfig.test-hooks.json): see fault-points.ts. */
export const TEST_KILL_PRELOAD = resolve(REPO_ROOT, 'dist/test-hooks/libs/testing/src/test-kill-preload.js');

/**
 * Starts a built entry point (e.g. dist/gateway/src/main.js) as its own OS process. With
 * POD_TEST_KILL_AT in `env` the kill hook is loaded ahead of it (`--require`), so production
 * code never imports it.
 */
export function spawnService(
  name: string,
  script: string,
  env: Record<string, string>,
  options: SpawnServiceOptions = {},
): ServiceProcess {
  const preload = env[TEST_KILL_ENV] ? ['--require', TEST_KILL_PRELOAD] : [];
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...preload, resolve(REPO_ROOT, script)], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  return { name, child, logs: () => output, exited, stop };
}

/** Polls a URL (with a pause between tries) until it answers with the wanted status, or fails after the timeout. */
export async function waitForHttp(
  url: string,
  options: { status?: number; timeoutMs?: number; process?: ServiceProcess } = {},
): Promise<void> {
  const wanted = options.status ?? 200;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (options.process && options.process.child.exitCode !== null) {
      throw new Error(`${options.process.name} exited early:\n${options.process.logs().slice(-3000)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      last = `${response.status}`;
      if (response.status === wanted) return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(
    `${url} did not answer ${wanted} in time (last: ${last})${options.process ? `\n${options.process.logs().slice(-3000)}` : ''}`,
  );
}
