import { Queue } from 'bullmq';
import { Client } from 'pg';
import { loadConfig } from '@pod/config';
import { payloadHash } from '@pod/db';
import { createPkcePair, EtsyClient, PrintifyClient, type EtsyAuth, type PrintifyAuth } from '@pod/integrations';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import { bullConnection, bullPrefix } from '@pod/queue';
import { pollUntil, startWorker, waitForHttp, type WorkerProcess } from './fleet';

/**
 * Replicas of the built etsy-sync and printify-sync workers (OS processes) for the reliability
 * tests, with what those tests read: which replica holds a run's job (BullMQ's processedBy,
 * "hostname:pid"), the sandbox's request log, the source as the sandbox serves it, and what
 * PostgreSQL stored.
 */
export const SYNC_WORKERS = ['etsy-sync', 'printify-sync'] as const;
export type SyncWorkerName = (typeof SYNC_WORKERS)[number];
export type ProviderName = 'etsy' | 'printify';
export const QUEUE_OF: Record<ProviderName, SyncWorkerName> = { etsy: 'etsy-sync', printify: 'printify-sync' };

export class SyncFleet {
  private readonly live: Record<SyncWorkerName, WorkerProcess[]> = { 'etsy-sync': [], 'printify-sync': [] };
  /** Replicas that were killed or stopped (their logs stay readable). */
  readonly retired: WorkerProcess[] = [];
  readonly queues: Record<SyncWorkerName, Queue>;

  constructor(
    private readonly env: Record<string, string>,
    redisPrefix: string,
  ) {
    const config = loadConfig({ REDIS_PREFIX: redisPrefix });
    this.queues = {
      'etsy-sync': new Queue('etsy-sync', {
        connection: bullConnection(config, 'producer'),
        prefix: bullPrefix(config),
      }),
      'printify-sync': new Queue('printify-sync', {
        connection: bullConnection(config, 'producer'),
        prefix: bullPrefix(config),
      }),
    };
  }

  /** Starts `replicas` of each sync worker, all at once, and waits until every one reports healthy. */
  async start(replicas: number): Promise<void> {
    const started = await Promise.all(
      SYNC_WORKERS.flatMap((name) => Array.from({ length: replicas }, () => this.add(name, false))),
    );
    await Promise.all(started.map((worker) => waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 })));
  }

  /** One more replica of `name` (healthy when `wait`). */
  async add(name: SyncWorkerName, wait = true, extraEnv: Record<string, string> = {}): Promise<WorkerProcess> {
    const worker = await startWorker(name, { ...this.env, ...extraEnv });
    this.live[name].push(worker);
    if (wait) await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
    return worker;
  }

  replicas(name: SyncWorkerName): WorkerProcess[] {
    return [...this.live[name]];
  }

  all(): WorkerProcess[] {
    return [...this.live['etsy-sync'], ...this.live['printify-sync'], ...this.retired];
  }

  byPid(pid: number): { name: SyncWorkerName; worker: WorkerProcess } | undefined {
    for (const name of SYNC_WORKERS) {
      const worker = this.live[name].find((candidate) => candidate.child.pid === pid);
      if (worker) return { name, worker };
    }
    return undefined;
  }

  /** Sends `signal` to a live replica; for SIGKILL and SIGTERM it waits for the exit and retires it. */
  async signal(
    pid: number,
    signal: NodeJS.Signals,
  ): Promise<{ code: number | null; signal: NodeJS.Signals | null; elapsedMs: number } | null> {
    const found = this.byPid(pid);
    if (!found) throw new Error(`no live replica with pid ${pid}`);
    const started = Date.now();
    found.worker.child.kill(signal);
    if (signal !== 'SIGKILL' && signal !== 'SIGTERM') return null;
    const exit = await found.worker.exited;
    this.live[found.name] = this.live[found.name].filter((worker) => worker !== found.worker);
    this.retired.push(found.worker);
    return { ...exit, elapsedMs: Date.now() - started };
  }

  /** Which live replica holds the job now (null while it waits or is finished). */
  async holder(provider: ProviderName, jobId: string): Promise<{ pid: number; state: string } | null> {
    const job = await this.queues[QUEUE_OF[provider]].getJob(jobId);
    if (!job) return null;
    const state = await job.getState();
    const pid = Number(
      String(job.processedBy ?? '')
        .split(':')
        .pop(),
    );
    return { pid: Number.isFinite(pid) ? pid : 0, state };
  }

  /** Waits until a replica other than `notPid` holds the job, and returns its pid and how long that took from `sinceMs`. */
  async takenOver(
    provider: ProviderName,
    jobId: string,
    notPid: number,
    sinceMs: number,
    timeoutMs = 20_000,
  ): Promise<{ pid: number; afterMs: number }> {
    return pollUntil(
      `another replica takes job ${jobId}`,
      async () => {
        const held = await this.holder(provider, jobId);
        return held && held.state === 'active' && held.pid !== notPid && held.pid !== 0
          ? { pid: held.pid, afterMs: Date.now() - sinceMs }
          : undefined;
      },
      timeoutMs,
      50,
    );
  }

  /** Job ids each process logged as completed, over every replica ever started. */
  completions(jobId: string): { pid: number | undefined; count: number }[] {
    return this.all()
      .map((worker) => ({
        pid: worker.child.pid,
        count: logEvents(worker, 'job.completed').filter((event) => event.jobId === jobId).length,
      }))
      .filter((row) => row.count > 0);
  }

  async stop(): Promise<void> {
    await Promise.all(SYNC_WORKERS.flatMap((name) => this.live[name].map((worker) => worker.stop('SIGTERM', 15_000))));
    await Promise.all(Object.values(this.queues).map((queue) => queue.close()));
  }
}

/** The JSON log lines of a process carrying `"event":"<event>"`. */
export function logEvents(worker: { logs(): string }, event: string): Record<string, unknown>[] {
  return worker
    .logs()
    .split('\n')
    .filter((line) => line.includes(`"event":"${event}"`))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

export interface LoggedRequest {
  seq: number;
  timestampMs: number;
  target: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number | null;
  tenantId: string | null;
  credential: string | null;
  fault: string | null;
}

/** The list requests a sync pages with (not payments, shops or tokens). */
export function isPageRequest(request: LoggedRequest): boolean {
  return /\/receipts$|\/ledger-entries$|\/orders\.json$/.test(request.path);
}

/** Page requests answered 200 that repeat an earlier one exactly (same path and query): pages fetched again. */
export function refetchedPages(requests: readonly LoggedRequest[]): LoggedRequest[] {
  const seen = new Set<string>();
  const again: LoggedRequest[] = [];
  for (const request of requests) {
    if (!isPageRequest(request) || request.status !== 200) continue;
    const key = `${request.path}?${new URLSearchParams(Object.entries(request.query).sort()).toString()}`;
    if (seen.has(key)) again.push(request);
    seen.add(key);
  }
  return again;
}

/** The most timestamps inside any window [t, t + windowMs). */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i += 1) {
    while (sorted[j] <= sorted[i] - windowMs) j += 1;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** One SQL statement on the test database. */
export async function sql<T>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface RecordVersion {
  hash: string;
  /** Epoch s of the source's update time (receipts only). */
  updated?: number;
}

/**
 * The source as the sandbox serves it, read with the product's own clients under a token of its
 * own (an Etsy grant and a second Printify token of the account), so its requests are told
 * apart from the workers' in the request log by their credential.
 */
export class SourceOracle {
  private etsy!: EtsyClient;
  private printify!: PrintifyClient;
  private etsyAuth!: EtsyAuth;
  private printifyAuth!: PrintifyAuth;

  constructor(
    private readonly sandboxUrl: string,
    private readonly admin: <T>(
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
      path: string,
      body?: unknown,
    ) => Promise<T>,
    private readonly tenant: {
      tenantId: string;
      etsy: { shopId: number };
      printify: { accountId: string | number; shops: { id: number }[] };
    },
    private readonly redirectUri: string,
  ) {}

  async connect(): Promise<this> {
    const limiter = new InMemoryRateLimiter();
    this.etsy = new EtsyClient(
      {
        apiUrl: this.sandboxUrl,
        keystring: 'sandbox-keystring',
        sharedSecret: 'sandbox-shared-secret',
        redirectUri: this.redirectUri,
        perSecondLimit: 1_000,
      },
      { limiter },
    );
    this.printify = new PrintifyClient({ apiUrl: this.sandboxUrl, perMinuteLimit: 60_000 }, { limiter });
    const pkce = createPkcePair();
    const grant = await this.admin<{ code: string }>('POST', `/tenants/${this.tenant.tenantId}/grant`, {
      clientId: 'sandbox-keystring',
      redirectUri: this.redirectUri,
      scope: 'transactions_r shops_r',
      state: 'oracle-state',
      codeChallenge: pkce.challenge,
      codeChallengeMethod: 'S256',
    });
    const tokens = await this.etsy.exchangeCode({ code: grant.code, codeVerifier: pkce.verifier });
    this.etsyAuth = {
      connectionKey: `oracle-${this.tenant.tenantId}`,
      getAccessToken: async () => tokens.accessToken,
      refreshAfterUnauthorized: async () => tokens.accessToken,
    };
    const { token } = await this.admin<{ token: string }>('POST', `/tenants/${this.tenant.tenantId}/printify-tokens`);
    this.printifyAuth = { token, accountKey: `oracle-${this.tenant.printify.accountId}` };
    return this;
  }

  /** Every receipt: id → payload hash and update time. */
  async receipts(): Promise<Map<string, RecordVersion>> {
    const all = new Map<string, RecordVersion>();
    const shop = String(this.tenant.etsy.shopId);
    for (let created = 946_684_800, skip = 0; ;) {
      const page = await this.etsy.listReceipts(this.etsyAuth, shop, {
        minCreated: created,
        sortOn: 'created',
        sortOrder: 'asc',
        limit: 100,
        offset: skip,
      });
      if (page.rejected.length > 0)
        throw new Error(`the source has unreadable receipts: ${JSON.stringify(page.rejected[0])}`);
      page.receipts.forEach((receipt, index) =>
        all.set(receipt.receiptId, {
          hash: payloadHash(page.payloads[index]),
          updated: receipt.updatedAt.getTime() / 1000,
        }),
      );
      if (page.receipts.length < 100) return all;
      const last = Math.floor((page.receipts.at(-1) as { createdAt: Date }).createdAt.getTime() / 1000);
      const sameSecond = page.receipts.filter(
        (receipt) => Math.floor(receipt.createdAt.getTime() / 1000) === last,
      ).length;
      skip = last === created ? skip + 100 : sameSecond;
      created = last;
    }
  }

  /** Every ledger entry created in [fromSeconds, toSeconds]: id → payload hash. */
  async ledger(fromSeconds: number, toSeconds: number): Promise<Map<string, RecordVersion>> {
    const all = new Map<string, RecordVersion>();
    const shop = String(this.tenant.etsy.shopId);
    for (let start = fromSeconds; start <= toSeconds; start += 2_678_401) {
      const end = Math.min(start + 2_678_400, toSeconds);
      for (let offset = 0; ; offset += 100) {
        const page = await this.etsy.listLedgerEntries(this.etsyAuth, shop, {
          minCreated: start,
          maxCreated: end,
          limit: 100,
          offset,
        });
        page.entries.forEach((entry, index) => all.set(entry.entryId, { hash: payloadHash(page.payloads[index]) }));
        if (page.entries.length + page.rejected.length < 100) break;
      }
    }
    return all;
  }

  /** Every Printify order of the shop: id → payload hash. */
  async printifyOrders(): Promise<Map<string, RecordVersion>> {
    const all = new Map<string, RecordVersion>();
    const shop = String(this.tenant.printify.shops[0].id);
    for (let page = 1; ; page++) {
      const result = await this.printify.listOrders(this.printifyAuth, shop, { page });
      result.orders.forEach((order, index) => all.set(order.id, { hash: payloadHash(result.payloads[index]) }));
      if (!result.hasNextPage) return all;
    }
  }
}

/** What PostgreSQL holds for a user: id → payload hash (and update time for receipts). */
export async function storedVersions(
  databaseUrl: string,
  userId: string,
  what: 'receipts' | 'ledger' | 'printify',
): Promise<Map<string, RecordVersion>> {
  const query = {
    receipts: `SELECT receipt_id AS id, payload_hash AS hash, extract(epoch FROM source_updated_at)::float8 AS updated FROM etsy_receipt WHERE user_id = $1`,
    ledger: `SELECT entry_id AS id, payload_hash AS hash FROM etsy_ledger_entry WHERE user_id = $1`,
    printify: `SELECT order_id AS id, payload_hash AS hash FROM printify_order WHERE user_id = $1`,
  }[what];
  const rows = await sql<{ id: string; hash: string; updated?: number }>(databaseUrl, query, [userId]);
  return new Map(
    rows.map((row) => [
      row.id,
      row.updated === undefined ? { hash: row.hash } : { hash: row.hash, updated: Number(row.updated) },
    ]),
  );
}

/** Natural keys stored more than once for a user, across every synced table (must be none). */
export async function duplicateKeys(
  databaseUrl: string,
  userId: string,
): Promise<{ table: string; key: string; copies: number }[]> {
  return sql(
    databaseUrl,
    `
    SELECT 'etsy_receipt' AS table, receipt_id AS key, count(*)::int AS copies FROM etsy_receipt WHERE user_id = $1 GROUP BY receipt_id HAVING count(*) > 1
    UNION ALL SELECT 'etsy_receipt_line', transaction_id, count(*)::int FROM etsy_receipt_line WHERE user_id = $1 GROUP BY transaction_id HAVING count(*) > 1
    UNION ALL SELECT 'etsy_payment', payment_id, count(*)::int FROM etsy_payment WHERE user_id = $1 GROUP BY payment_id HAVING count(*) > 1
    UNION ALL SELECT 'etsy_ledger_entry', entry_id, count(*)::int FROM etsy_ledger_entry WHERE user_id = $1 GROUP BY entry_id HAVING count(*) > 1
    UNION ALL SELECT 'printify_order', order_id, count(*)::int FROM printify_order WHERE user_id = $1 GROUP BY order_id HAVING count(*) > 1`,
    [userId],
  );
}

/** Where two version maps differ (missing, extra, changed), at most `limit` of each, for readable failures. */
export function diffVersions(
  source: Map<string, RecordVersion>,
  stored: Map<string, RecordVersion>,
  limit = 5,
): { missing: string[]; extra: string[]; changed: string[] } {
  const missing = [...source.keys()].filter((id) => !stored.has(id));
  const extra = [...stored.keys()].filter((id) => !source.has(id));
  const changed = [...source.entries()]
    .filter(([id, version]) => {
      const mine = stored.get(id);
      return (
        mine !== undefined &&
        (mine.hash !== version.hash || (version.updated !== undefined && mine.updated !== version.updated))
      );
    })
    .map(([id]) => id);
  return { missing: missing.slice(0, limit), extra: extra.slice(0, limit), changed: changed.slice(0, limit) };
}
