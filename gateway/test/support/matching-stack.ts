import { Queue } from 'bullmq';
import { loadConfig } from '@pod/config';
import { bullConnection, bullPrefix } from '@pod/queue';
import {
  consentGrantBody,
  createTestDatabase,
  deleteRedisPrefix,
  freePort,
  queryDatabase,
  sandboxAdmin,
  spawnService,
  TEST_APP_SECRET,
  TEST_OPERATOR_TOKEN,
  TEST_SANDBOX_ADMIN_TOKEN,
  uniqueRedisPrefix,
  waitForHttp,
  type ServiceProcess,
  type TestDatabase,
} from '@pod/testing';
import { pollUntil, startWorker, type WorkerName, type WorkerProcess } from '../../../services/test/support/fleet';

/**
 * Built processes for the replica tests of matching and profit (security plan items 33 and 34):
 * one spawned sandbox shared by every stack (so each stack syncs the very same sellers), and per
 * stack a fresh database and Redis prefix, the built gateway and N replicas of each sync worker
 * and of the matcher (one fx-rate). Sellers sign up, connect and act through the gateway's HTTP
 * API as the web app does.
 */

/** Etsy's pace for these small sellers, in the sandbox and in the workers' buckets alike. */
const ETSY_QPS = 40;
const PRINTIFY_RPM = 6_000;
const STACK_SHUTDOWN_TIMEOUT_MS = 10_000;

export interface SandboxTenant {
  tenantId: string;
  etsy: { shopId: number; currency: string };
  printify: { token: string; shops: { id: number }[] };
  orders: number;
}

export class SpawnedSandbox {
  private constructor(
    readonly url: string,
    readonly process: ServiceProcess,
  ) {}

  /** The built sandbox on a free port, accepting the Etsy callbacks of the given gateways. */
  static async start(redirectUris: string[]): Promise<SpawnedSandbox> {
    const port = await freePort();
    const service = spawnService('sandbox', 'dist/services/sandbox/src/main.js', {
      SANDBOX_HOST: '127.0.0.1',
      SANDBOX_PORT: String(port),
      SANDBOX_ETSY_REDIRECT_URIS: redirectUris.join(','),
      SANDBOX_ADMIN_TOKEN: TEST_SANDBOX_ADMIN_TOKEN,
      SANDBOX_DEFAULT_TENANT: 'false',
      SANDBOX_ETSY_QPS: String(ETSY_QPS),
      SANDBOX_PRINTIFY_RPM: String(PRINTIFY_RPM),
    });
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}/__sandbox/healthz`, { process: service, timeoutMs: 30_000 });
    } catch (error) {
      await service.stop('SIGKILL');
      throw error;
    }
    return new SpawnedSandbox(url, service);
  }

  admin<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return sandboxAdmin(this.url)<T>(method, path, body);
  }

  /** What "Allow access" on the consent page does for `tenantId`: a code for this authorization URL. */
  consent(authUrl: string, tenantId: string): Promise<{ code: string; state: string }> {
    return this.admin('POST', `/tenants/${tenantId}/grant`, consentGrantBody(authUrl));
  }

  async stop(): Promise<void> {
    await this.process.stop('SIGTERM', 10_000);
  }
}

/** A seller of one stack: who they are in PodProfit, and the sandbox tenant behind their shop. */
export interface StackSeller {
  label: string;
  email: string;
  cookie: string;
  userId: string;
  tenant: SandboxTenant;
}

export interface ApiAnswer<T> {
  status: number;
  body: T;
  location: string | null;
}

export interface MatchingStackOptions {
  replicas: number;
  port: number;
  sandbox: SpawnedSandbox;
}

const PASSWORD = 'Correct-Horse-7-Battery';

export class MatchingStack {
  readonly workers: WorkerProcess[] = [];
  readonly queues: { matcher: Queue; 'fx-rate': Queue };
  readonly baseUrl: string;
  private signUps = 0;

  private constructor(
    readonly replicas: number,
    readonly database: TestDatabase,
    readonly redisPrefix: string,
    readonly gateway: ServiceProcess,
    port: number,
    readonly sandbox: SpawnedSandbox,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({ REDIS_PREFIX: redisPrefix, APP_SECRET: TEST_APP_SECRET });
    const queue = (name: 'matcher' | 'fx-rate') =>
      new Queue(name, { connection: bullConnection(config, 'producer'), prefix: bullPrefix(config) });
    this.queues = { matcher: queue('matcher'), 'fx-rate': queue('fx-rate') };
  }

  /** The gateway (which migrates the fresh database), then every worker at once, each healthy. */
  static async start({ replicas, port, sandbox }: MatchingStackOptions): Promise<MatchingStack> {
    const database = await createTestDatabase(`replicas${replicas}`);
    const redisPrefix = uniqueRedisPrefix(`replicas${replicas}`);
    const baseUrl = `http://127.0.0.1:${port}`;
    const shared = {
      DATABASE_URL: database.url,
      REDIS_PREFIX: redisPrefix,
      APP_SECRET: TEST_APP_SECRET,
      PUBLIC_ORIGIN: baseUrl,
      SANDBOX_URL: sandbox.url,
      SANDBOX_ADMIN_TOKEN: TEST_SANDBOX_ADMIN_TOKEN,
      ETSY_REQUESTS_PER_SECOND: String(ETSY_QPS),
      PRINTIFY_REQUESTS_PER_MINUTE: String(PRINTIFY_RPM),
      SHUTDOWN_TIMEOUT_MS: String(STACK_SHUTDOWN_TIMEOUT_MS),
    };
    const gateway = spawnService('gateway', 'dist/gateway/src/main.js', {
      ...shared,
      PORT: String(port),
      OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      WEB_DIST_DIR: 'gateway/test/support/web-dist',
      // Nothing but the test starts work: no scheduled syncs or rate loads in the middle of a case.
      SYNC_EVERY_MINUTES: '0',
      RESYNC_CRON: 'off',
      FX_RATES_CRON: 'off',
    });
    const stack = new MatchingStack(replicas, database, redisPrefix, gateway, port, sandbox);
    try {
      await waitForHttp(`${baseUrl}/healthz`, { process: gateway, timeoutMs: 60_000 });
      const names: WorkerName[] = [
        'fx-rate',
        ...(['etsy-sync', 'printify-sync', 'matcher'] as const).flatMap((name) =>
          Array.from({ length: replicas }, () => name),
        ),
      ];
      const started = await Promise.all(names.map((name) => startWorker(name, { ...shared, WORKER_CONCURRENCY: '4' })));
      stack.workers.push(...started);
      await Promise.all(started.map((worker) => waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 90_000 })));
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  replicasOf(name: WorkerName): WorkerProcess[] {
    return this.workers.filter((worker) => worker.name === name);
  }

  sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    return queryDatabase<T>(this.database.url, text, params);
  }

  /** One request to the gateway as a same-origin browser would send it (with the seller's cookie). */
  async api<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { cookie?: string; body?: unknown } = {},
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        origin: this.baseUrl,
        'sec-fetch-site': 'same-origin',
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
      },
      body: method === 'POST' ? JSON.stringify(options.body ?? {}) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      // Not JSON (a redirect's empty page): the text stays.
    }
    return { status: response.status, body: body as T, location: response.headers.get('location') };
  }

  /** A new account on this stack, signed in. */
  async signUp(label: string, tenant: SandboxTenant): Promise<StackSeller> {
    this.signUps += 1;
    const email = `${label}.${this.replicas}.${this.signUps}.${Date.now().toString(36)}@example.com`;
    const answer = await fetch(`${this.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { origin: this.baseUrl, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({
        email,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        firstName: 'Replica',
        lastName: 'Seller',
      }),
      signal: AbortSignal.timeout(15_000),
    });
    if (answer.status !== 201) throw new Error(`sign-up refused: ${answer.status} ${await answer.text()}`);
    const [{ id }] = await this.sql<{ id: string }>('SELECT id FROM app_user WHERE email = $1', [email]);
    return { label, email, cookie: cookieOf(answer), userId: id, tenant };
  }

  /** Another session of the same seller (another browser). */
  async signIn(seller: StackSeller): Promise<string> {
    const answer = await fetch(`${this.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { origin: this.baseUrl, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ email: seller.email, password: PASSWORD }),
      signal: AbortSignal.timeout(15_000),
    });
    if (answer.status !== 200) throw new Error(`sign-in refused: ${answer.status} ${await answer.text()}`);
    return cookieOf(answer);
  }

  /**
   * Connects the seller's Etsy shop (the consent page's grant, then the gateway's callback) and
   * their Printify account: as in the product, connecting both starts the first sync of each.
   */
  async connect(seller: StackSeller): Promise<void> {
    const start = await this.api<{ authUrl: string }>('POST', '/api/connections/etsy/oauth', { cookie: seller.cookie });
    if (start.status !== 200 && start.status !== 201)
      throw new Error(`Etsy connect refused: ${start.status} ${JSON.stringify(start.body)}`);
    const { code, state } = await this.sandbox.consent(start.body.authUrl, seller.tenant.tenantId);
    const callback = await this.api('GET', `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`, {
      cookie: seller.cookie,
    });
    if (callback.location !== '/connections?etsy=connected')
      throw new Error(`Etsy callback failed: ${callback.status} ${callback.location}`);
    const printify = await this.api('POST', '/api/connections/printify', {
      cookie: seller.cookie,
      body: { token: seller.tenant.printify.token, shopId: String(seller.tenant.printify.shops[0].id) },
    });
    if (printify.status !== 200)
      throw new Error(`Printify connect refused: ${printify.status} ${JSON.stringify(printify.body)}`);
  }

  /** Waits until the seller's latest Etsy and Printify runs both succeeded (fails at once on a failed run). */
  async syncsDone(seller: StackSeller, timeoutMs = 90_000): Promise<void> {
    await waitFor(
      `the syncs of ${seller.label}`,
      async () => {
        const { body } = await this.api<SyncStatus>('GET', '/api/sync/status', { cookie: seller.cookie });
        for (const run of [body.etsy, body.printify])
          if (run?.status === 'failed') throw new FatalWait(`a ${seller.label} sync failed: ${JSON.stringify(run)}`);
        return !body.active && body.etsy?.status === 'succeeded' && body.printify?.status === 'succeeded'
          ? true
          : undefined;
      },
      timeoutMs,
      100,
    );
  }

  /** The jobs of a queue that are not finished (waiting, active, delayed, prioritized, paused). */
  async unfinished(queue: 'matcher' | 'fx-rate'): Promise<number> {
    const counts = await this.queues[queue].getJobCounts(
      'waiting',
      'active',
      'delayed',
      'prioritized',
      'paused',
      'waiting-children',
    );
    return Object.values(counts).reduce((sum, n) => sum + n, 0);
  }

  /**
   * Everything done: rates loaded, each seller's latest match run finished (none failed), and no
   * matcher or fx-rate job left to run, seen twice in a row (an orders.synced event or a
   * profit trigger in flight between two looks would show as a new run or job on the second).
   */
  async settled(sellers: readonly StackSeller[], timeoutMs = 90_000): Promise<void> {
    let quietLooks = 0;
    await waitFor(
      'matching, profits and rates settle',
      async () => {
        const quiet = await this.quiet(sellers);
        quietLooks = quiet ? quietLooks + 1 : 0;
        return quietLooks >= 2 ? true : undefined;
      },
      timeoutMs,
      150,
    );
  }

  private async quiet(sellers: readonly StackSeller[]): Promise<boolean> {
    for (const queue of Object.values(this.queues)) {
      const failed = await queue.getJobs(['failed'], 0, 5);
      if (failed.length > 0)
        throw new FatalWait(
          `a ${queue.name} job failed: ${failed.map((job) => `${job.name} ${job.id}: ${job.failedReason}`).join('; ')}`,
        );
    }
    const [{ rates }] = await this.sql<{ rates: number }>('SELECT count(*)::int AS rates FROM fx_rate');
    if (rates === 0) return false;
    for (const seller of sellers) {
      const { body } = await this.api<MatchStatus>('GET', '/api/orders/match/status', { cookie: seller.cookie });
      if (body.run?.status === 'failed')
        throw new FatalWait(`a ${seller.label} match run failed: ${JSON.stringify(body.run)}`);
      if (body.active || !body.run) return false;
      // The product's own signal: no sync, match or profit run queued or running, none ended in the
      // last seconds (the gap before the match run a sync's last page asks for is queued).
      const sync = await this.api<SyncStatus>('GET', '/api/sync/status', { cookie: seller.cookie });
      if (sync.body.settling) return false;
    }
    return (await this.unfinished('matcher')) === 0 && (await this.unfinished('fx-rate')) === 0;
  }

  /** Where each process stands, for a failure message. */
  describeProcesses(): string {
    return [this.gateway, ...this.workers]
      .map((service) => {
        const tail = service
          .logs()
          .split('\n')
          .filter((line) => /"level":(40|50|60)|error|Error/.test(line))
          .slice(-4);
        return `--- ${service.name} ${service.child.pid} exit=${service.child.exitCode ?? service.child.signalCode ?? 'running'}\n${tail.join('\n')}`;
      })
      .join('\n');
  }

  async stop(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.stop('SIGTERM', 15_000)));
    await this.gateway.stop('SIGTERM', 15_000);
    await Promise.all(Object.values(this.queues).map((queue) => queue.close()));
    await this.database.drop();
    await deleteRedisPrefix(this.redisPrefix);
  }
}

interface SyncStatus {
  etsy: { status: string } | null;
  printify: { status: string } | null;
  active: boolean;
  settling: boolean;
}

export interface MatchStatus {
  run: { id: string; status: string; trigger: string } | null;
  active: boolean;
}

/** A finding that ends a wait at once instead of polling on to the timeout. */
class FatalWait extends Error {}

/** pollUntil, except that a FatalWait from the probe ends the wait with that error. */
async function waitFor(
  what: string,
  probe: () => Promise<true | undefined>,
  timeoutMs: number,
  intervalMs: number,
): Promise<void> {
  let fatal: FatalWait | undefined;
  await pollUntil(
    what,
    async () => {
      try {
        return await probe();
      } catch (error) {
        if (!(error instanceof FatalWait)) throw error;
        fatal = error;
        return true;
      }
    },
    timeoutMs,
    intervalMs,
  );
  if (fatal) throw fatal;
}

function cookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith('podprofit_session='));
  if (!cookie) throw new Error('no session cookie was set');
  return cookie.split(';')[0];
}
