import { readFileSync } from 'node:fs';
import { LOCAL_SANDBOX_ADMIN_TOKEN_FILE, loadConfig } from '@pod/config';
import { freePort, spawnService, TEST_APP_SECRET, waitForHttp } from '@pod/testing';
import { SandboxAdminClient } from '../../gateway/src/demo/sandbox-admin.client';
import { ensureBuilt } from './support/fleet';

/**
 * The sandbox's admin API hands out sellers' Printify tokens, so its token is never a default:
 * the built sandbox refuses to start beyond loopback without a strong SANDBOX_ADMIN_TOKEN (the
 * old `sandbox-admin` included), and a local start without one generates it into
 * .data/sandbox-admin-token, where the gateway's admin client finds it (as under `npm start`).
 */
jest.setTimeout(60_000);

async function exitOf(env: Record<string, string>): Promise<{ code: number | null; logs: string }> {
  const sandbox = spawnService('sandbox', 'dist/services/sandbox/src/main.js', {
    SANDBOX_PORT: String(await freePort()),
    ...env,
  });
  const timer = setTimeout(() => void sandbox.stop('SIGKILL'), 20_000);
  const { code } = await sandbox.exited;
  clearTimeout(timer);
  return { code, logs: sandbox.logs() };
}

beforeAll(() => ensureBuilt());

describe('the sandbox admin token', () => {
  it('is refused beyond loopback when missing, the old default or short', async () => {
    const missing = await exitOf({ SANDBOX_HOST: '0.0.0.0' });
    expect(missing).toEqual({
      code: 1,
      logs: expect.stringContaining('SANDBOX_ADMIN_TOKEN is required when the sandbox listens beyond loopback'),
    });
    for (const token of ['sandbox-admin', 'only-twenty-characte']) {
      const weak = await exitOf({ SANDBOX_HOST: '0.0.0.0', SANDBOX_ADMIN_TOKEN: token });
      expect(weak.code).toBe(1);
      expect(weak.logs).toContain('SANDBOX_ADMIN_TOKEN must be at least 24 characters, and not the old default');
      expect(weak.logs).not.toContain(token);
    }
  });

  it('on a local start without one, is generated into .data/sandbox-admin-token, which the gateway’s admin client uses', async () => {
    const port = await freePort();
    const sandbox = spawnService('sandbox', 'dist/services/sandbox/src/main.js', {
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_PORT: String(port),
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}/__sandbox/healthz`, { process: sandbox, timeoutMs: 30_000 });
      const token = readFileSync(LOCAL_SANDBOX_ADMIN_TOKEN_FILE, 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
      // Never printed: only where it is.
      expect(sandbox.logs()).not.toContain(token);
      const status = async (bearer: string) =>
        (await fetch(`${url}/__sandbox/tenants`, { headers: { authorization: `Bearer ${bearer}` } })).status;
      expect(await status('sandbox-admin')).toBe(401);
      expect(await status(token)).toBe(200);
      // The gateway without SANDBOX_ADMIN_TOKEN (as `npm start` runs it) reads the same file.
      const client = new SandboxAdminClient(
        loadConfig({ NODE_ENV: 'development', APP_SECRET: TEST_APP_SECRET, SANDBOX_URL: url }),
      );
      await expect(client.listTenantIds()).resolves.toBeInstanceOf(Set);
      // In production there is no fallback.
      const production = new SandboxAdminClient(
        loadConfig({ NODE_ENV: 'production', APP_SECRET: TEST_APP_SECRET, SANDBOX_URL: url }),
      );
      await expect(production.listTenantIds()).rejects.toThrow('SANDBOX_ADMIN_TOKEN is not set');
    } finally {
      await sandbox.stop();
    }
  });
});
