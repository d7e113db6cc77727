import { createTestDatabase, uniqueRedisPrefix, type TestDatabase } from './test-database';
import { freePort, spawnService, waitForHttp, type ServiceProcess } from './processes';

export interface TestStack {
  baseUrl: string;
  database: TestDatabase;
  redisPrefix: string;
  gateway: ServiceProcess;
  stop(): Promise<void>;
}

export const TEST_APP_SECRET = 'test-app-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789';

/**
 * The built gateway (dist/, serving web/dist) on a free port, with its own fresh database and
 * Redis prefix. The gateway migrates the empty database as it starts.
 */
export async function startTestStack(env: Record<string, string> = {}): Promise<TestStack> {
  const database = await createTestDatabase('stack');
  const redisPrefix = uniqueRedisPrefix('stack');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway = spawnService('gateway', 'dist/gateway/src/main.js', {
    PORT: String(port),
    // Etsy sends the browser back to the address the tests browse (the session cookie's host).
    ETSY_REDIRECT_URI: `${baseUrl}/api/connections/etsy/callback`,
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
    await database.drop();
    throw error;
  }
  return {
    baseUrl,
    database,
    redisPrefix,
    gateway,
    stop: async () => {
      await gateway.stop();
      await database.drop();
    },
  };
}
