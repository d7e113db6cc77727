import { createTestDatabase, uniqueRedisPrefix, type TestDatabase } from './test-database';
import { freePort, spawnService, waitForHttp, type ServiceProcess } from './processes';
import { GATEWAY_NODE_ARGS } from './gateway-node-args';

export interface TestSandbox {
  /** e.g. http://127.0.0.1:41234 — Etsy (/v3, /oauth/connect), Printify (/v1), admin (/__sandbox). */
  url: string;
  /** Bearer token of the sandbox's admin API. */
  adminToken: string;
  process: ServiceProcess;
  /** A call to the admin API (/__sandbox/…), parsed as JSON. */
  admin<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/** The worker processes a stack can run next to its gateway (`{ workers: [...] }`). */
export type TestStackWorker = 'etsy-sync' | 'printify-sync' | 'matcher' | 'fx-rate';

export interface TestStack {
  baseUrl: string;
  database: TestDatabase;
  redisPrefix: string;
  gateway: ServiceProcess;
  /** Present when started with `{ sandbox: true }`. */
  sandbox?: TestSandbox;
  /** The workers started with `{ workers: [...] }`, by name. */
  workers: Partial<Record<TestStackWorker, ServiceProcess>>;
  stop(): Promise<void>;
}

export interface TestStackOptions {
  /**
   * Also start the built sandbox (dist/services/sandbox) on a free port, with the gateway's
   * callback registered, and run the gateway in demo mode against it (SANDBOX_URL, no Etsy keys).
   */
  sandbox?: boolean;
  /**
   * Also start these built workers (dist/services/<name>) against the stack's database, Redis
   * prefix and providers, once the gateway has migrated; each must report healthy.
   */
  workers?: readonly TestStackWorker[];
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
  return { url, adminToken: TEST_SANDBOX_ADMIN_TOKEN, process, admin: sandboxAdmin(url) };
}

/** Calls to the admin API (/__sandbox/…) of the sandbox at `url`, parsed as JSON; a non-2xx answer throws. */
export function sandboxAdmin(url: string): TestSandbox['admin'] {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_SANDBOX_ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}

/**
 * The body of the sandbox's `POST /__sandbox/tenants/:id/grant` for an Etsy authorization URL:
 * what the consent page's "Allow access" sends, so a test can consent without a browser.
 */
export function consentGrantBody(authUrl: string): Record<string, string | null> {
  const params = new URL(authUrl).searchParams;
  return {
    clientId: params.get('client_id'),
    redirectUri: params.get('redirect_uri'),
    scope: params.get('scope'),
    state: params.get('state'),
    codeChallenge: params.get('code_challenge'),
    codeChallengeMethod: params.get('code_challenge_method'),
  };
}

/**
 * The built gateway (dist/, serving web/dist) on a free port, with its own fresh database and
 * Redis prefix, and optionally the built sandbox for Etsy and Printify. The gateway migrates
 * the empty database as it starts.
 */
export async function startTestStack(
  env: Record<string, string> = {},
  options: TestStackOptions = {},
): Promise<TestStack> {
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
  // What the gateway and the workers share: the data, the queues, the providers.
  const sharedEnv = {
    ...(sandbox ? { SANDBOX_URL: sandbox.url, SANDBOX_ADMIN_TOKEN: sandbox.adminToken } : {}),
    DATABASE_URL: database.url,
    REDIS_PREFIX: redisPrefix,
    APP_SECRET: TEST_APP_SECRET,
  };
  const gateway = spawnService(
    'gateway',
    'dist/gateway/src/main.js',
    {
      PORT: String(port),
      PUBLIC_ORIGIN: baseUrl,
      ...sharedEnv,
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      SUPPORT_EMAIL: 'help@podprofit.test',
      ...env,
    },
    { nodeArgs: [...GATEWAY_NODE_ARGS] },
  );
  const workers: Partial<Record<TestStackWorker, ServiceProcess>> = {};
  const stopAll = async (signal?: NodeJS.Signals) => {
    await Promise.all(Object.values(workers).map((worker) => worker.stop(signal)));
    await gateway.stop(signal);
    await sandbox?.process.stop(signal);
  };
  try {
    await waitForHttp(`${baseUrl}/healthz`, { process: gateway, timeoutMs: 60_000 });
    // After the gateway: it migrates the fresh database, and workers never migrate.
    for (const name of options.workers ?? []) {
      const healthPort = await freePort();
      const worker = spawnService(name, `dist/services/${name}/src/main.js`, {
        ...sharedEnv,
        HEALTH_PORT: String(healthPort),
        ...env,
      });
      workers[name] = worker;
      await waitForHttp(`http://127.0.0.1:${healthPort}/healthz`, { process: worker, timeoutMs: 60_000 });
    }
  } catch (error) {
    await stopAll('SIGKILL');
    await database.drop();
    throw error;
  }
  return {
    baseUrl,
    database,
    redisPrefix,
    gateway,
    sandbox,
    workers,
    stop: async () => {
      await stopAll();
      await database.drop();
    },
  };
}
