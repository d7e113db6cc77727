import { createTestDatabase, uniqueRedisPrefix, type TestDatabase } from './test-database';
import { freePort, spawnService, waitForHttp, type ServiceProcess } from './processes';

export interface TestSandbox {
  /** e.g. http://127.0.0.1:41234 — Etsy (/v3, /oauth/connect), Printify (/v1), admin (/__sandbox). */
  url: string;
  /** Bearer token of the sandbox's admin API. */
  adminToken: string;
  process: ServiceProcess;
  /** A call to the admin API (/__sandbox/…), parsed as JSON. */
  admin<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

export interface TestStack {
  baseUrl: string;
  database: TestDatabase;
  redisPrefix: string;
  gateway: ServiceProcess;
  /** Present when started with `{ sandbox: true }`. */
  sandbox?: TestSandbox;
  stop(): Promise<void>;
}

export interface TestStackOptions {
  /**
   * Also start the built sandbox (dist/services/sandbox) on a free port, with the gateway's
   * callback registered, and run the gateway in demo mode against it (SANDBOX_URL, no Etsy keys).
   */
  sandbox?: boolean;
}

export const TEST_APP_SECRET = 'test-app-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789';
export const TEST_SANDBOX_ADMIN_TOKEN = 'test-sandbox-admin-token';

async function startSandbox(redirectUri: string): Promise<TestSandbox> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = spawnService('sandbox', 'dist/services/sandbox/src/main.js', {
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: String(port),
    SANDBOX_ETSY_REDIRECT_URIS: redirectUri,
    SANDBOX_ADMIN_TOKEN: TEST_SANDBOX_ADMIN_TOKEN,
  });
  try {
    await waitForHttp(`${url}/__sandbox/healthz`, { process, timeoutMs: 30_000 });
  } catch (error) {
    await process.stop('SIGKILL');
    throw error;
  }
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: { authorization: `Bearer ${TEST_SANDBOX_ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
  return { url, adminToken: TEST_SANDBOX_ADMIN_TOKEN, process, admin };
}

/**
 * The built gateway (dist/, serving web/dist) on a free port, with its own fresh database and
 * Redis prefix, and optionally the built sandbox for Etsy and Printify. The gateway migrates
 * the empty database as it starts.
 */
export async function startTestStack(env: Record<string, string> = {}, options: TestStackOptions = {}): Promise<TestStack> {
  const database = await createTestDatabase('stack');
  const redisPrefix = uniqueRedisPrefix('stack');
  const port = await freePort();
  // The stack's public origin (PUBLIC_ORIGIN): the tests browse it, and the gateway sends a
  // page request on another local name (localhost) there. Etsy's callback defaults to it.
  const baseUrl = `http://127.0.0.1:${port}`;
  const redirectUri = `${baseUrl}/api/connections/etsy/callback`;
  let sandbox: TestSandbox | undefined;
  try {
    if (options.sandbox) sandbox = await startSandbox(redirectUri);
  } catch (error) {
    await database.drop();
    throw error;
  }
  const gateway = spawnService('gateway', 'dist/gateway/src/main.js', {
    PORT: String(port),
    PUBLIC_ORIGIN: baseUrl,
    ...(sandbox ? { SANDBOX_URL: sandbox.url, SANDBOX_ADMIN_TOKEN: sandbox.adminToken } : {}),
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
    OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
    SUPPORT_EMAIL: 'help@podprofit.test',
    ...env,
  });
  try {
    await waitForHttp(`${baseUrl}/healthz`, { process: gateway, timeoutMs: 60_000 });
  } catch (error) {
    await gateway.stop('SIGKILL');
    await sandbox?.process.stop('SIGKILL');
    await database.drop();
    throw error;
  }
  return {
    baseUrl,
    database,
    redisPrefix,
    gateway,
    sandbox,
    stop: async () => {
      await gateway.stop();
      await sandbox?.process.stop();
      await database.drop();
    },
  };
}
