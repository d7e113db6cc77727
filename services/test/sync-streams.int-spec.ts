import type { FastifyInstance } from 'fastify';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Provider } from '@pod/contracts';
import { createDataSource, prepareDatabase, SyncRunsRepository, SyncQuarantineRepository, type SyncRun } from '@pod/db';
import { createPkcePair, EtsyClient, InMemoryRateLimiter, PrintifyClient, type EtsyAuth, type PrintifyAuth } from '@pod/integrations';
import type { SyncRunPayload } from '@pod/queue';
import { createTestDatabase, uniqueRedisPrefix, type TestDatabase } from '@pod/testing';
import { DEFAULT_LOOKBACKS, etsyLedgerStream, etsyReceiptsStream, printifyOrdersStream, SyncRunner, type SyncStream } from '@pod/sync';
import { createSandboxApp } from '../sandbox/src/app';

/**
 * The provider streams through the real driver, BullMQ, PostgreSQL and the sandbox (as a
 * server, seeded with a few months of orders): what they store must equal what the sandbox
 * serves, an immediate re-sync must change nothing in one or two requests a stream, and changes
 * at the source must arrive with the next incremental sync.
 */
const ADMIN = 'streams-test-admin';
const REDIRECT = 'http://127.0.0.1:1/api/connections/etsy/callback';
const KEYSTRING = 'sandbox-keystring';
const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
const prefix = uniqueRedisPrefix('streams');

let database: TestDatabase;
let dataSource: DataSource;
let sandbox: FastifyInstance;
let sandboxUrl: string;
let queue: Queue<SyncRunPayload>;
let events: QueueEvents;
let worker: Worker<SyncRunPayload>;
let userId: string;
let tenant: { tenantId: string; etsy: { shopId: number; currency: string }; printify: { token: string; accountId: string; shops: { id: number }[] } };
let etsyAuth: EtsyAuth;
let printifyAuth: PrintifyAuth;
let etsy: EtsyClient;
let printify: PrintifyClient;
let etsyShop: string;
let printifyShop: string;

async function admin<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${sandboxUrl}/__sandbox${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? undefined : await response.json()) as T;
}

async function requestsSince(since: number, target: 'etsy' | 'printify'): Promise<{ path: string; status: number }[]> {
  const log = await admin<{ requests: { path: string; status: number; target: string }[] }>('GET', `/requests?since=${since}&target=${target}&limit=10000`);
  return log.requests.filter((entry) => !entry.path.includes('/oauth/'));
}

function streamsFor(run: SyncRun): SyncStream<unknown>[] {
  const common = { dataSource, lookbacks: DEFAULT_LOOKBACKS, now: Date.now };
  if (run.provider === 'etsy') {
    return [etsyReceiptsStream(etsy, { ...common, auth: etsyAuth }) as SyncStream<unknown>, etsyLedgerStream(etsy, { ...common, auth: etsyAuth }) as SyncStream<unknown>];
  }
  return [printifyOrdersStream(printify, { ...common, auth: printifyAuth, currency: 'USD', syncFromMs: null }) as SyncStream<unknown>];
}

async function sync(provider: Provider): Promise<{ status: string; orders_added: number; orders_changed: number; requests_made: number }> {
  const shopId = provider === 'etsy' ? etsyShop : printifyShop;
  const { run } = await new SyncRunsRepository(dataSource).startOrGetActive({ userId, provider, shopId, trigger: 'user', mode: 'incremental' });
  const job = await queue.add('sync', { runId: run.id }, { jobId: run.id });
  await job.waitUntilFinished(events, 120_000);
  const [row] = await dataSource.query(`SELECT status, orders_added, orders_changed, requests_made FROM sync_run WHERE id = $1`, [run.id]);
  return row;
}

async function count(table: string): Promise<number> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]);
  return row.n;
}

/** Every receipt the sandbox serves for the shop: id → update timestamp and status. */
async function sourceReceipts(): Promise<Map<string, { updated: number; status: string }>> {
  const all = new Map<string, { updated: number; status: string }>();
  for (let created = 946_684_800, skip = 0; ; ) {
    const page = await etsy.listReceipts(etsyAuth, etsyShop, { minCreated: created, sortOn: 'created', sortOrder: 'asc', limit: 100, offset: skip });
    for (const receipt of page.receipts) all.set(receipt.receiptId, { updated: receipt.updatedAt.getTime() / 1000, status: receipt.status });
    if (page.receipts.length < 100) return all;
    skip += 100;
    if (skip >= 12_000) throw new Error('test shop too large for plain offsets');
  }
}

async function storedReceipts(): Promise<Map<string, { updated: number; status: string }>> {
  const rows: { receipt_id: string; updated: Date; status: string }[] = await dataSource.query(
    `SELECT receipt_id, source_updated_at AS updated, status FROM etsy_receipt WHERE user_id = $1`,
    [userId],
  );
  return new Map(rows.map((row) => [row.receipt_id, { updated: row.updated.getTime() / 1000, status: row.status }]));
}

beforeAll(async () => {
  database = await createTestDatabase('streams');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 6 }, 'streams-test').initialize();
  [{ id: userId }] = await dataSource.query(`INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ('streams@test.invalid', 'x', 'S', 'T') RETURNING id`);

  sandbox = createSandboxApp({
    port: 0,
    adminToken: ADMIN,
    defaultTenant: false,
    etsyApp: { keystring: KEYSTRING, sharedSecret: 'sandbox-shared-secret', name: 'PodProfit', redirectUris: [REDIRECT] },
  });
  sandboxUrl = await sandbox.listen({ host: '127.0.0.1', port: 0 });
  tenant = await admin('POST', '/tenants', { seed: 'streams', months: 4, ordersPerMonth: 60, printifyEnvelope: 'minimal' });
  etsyShop = String(tenant.etsy.shopId);
  printifyShop = String(tenant.printify.shops[0].id);

  const limiter = new InMemoryRateLimiter();
  etsy = new EtsyClient({ apiUrl: sandboxUrl, keystring: KEYSTRING, sharedSecret: 'sandbox-shared-secret', redirectUri: REDIRECT }, { limiter });
  printify = new PrintifyClient({ apiUrl: sandboxUrl }, { limiter });
  const pkce = createPkcePair();
  const grant = await admin<{ code: string }>('POST', `/tenants/${tenant.tenantId}/grant`, {
    clientId: KEYSTRING,
    redirectUri: REDIRECT,
    scope: 'transactions_r shops_r',
    state: 'streams-test-state',
    codeChallenge: pkce.challenge,
    codeChallengeMethod: 'S256',
  });
  const tokens = await etsy.exchangeCode({ code: grant.code, codeVerifier: pkce.verifier });
  etsyAuth = { connectionKey: 'streams-test', getAccessToken: async () => tokens.accessToken, refreshAfterUnauthorized: async () => tokens.accessToken };
  printifyAuth = { token: tenant.printify.token, accountKey: String(tenant.printify.accountId) };

  queue = new Queue<SyncRunPayload>('sync-streams', { connection, prefix, defaultJobOptions: { attempts: 2, backoff: { type: 'fixed', delay: 100 } } });
  events = new QueueEvents('sync-streams', { connection, prefix });
  await events.waitUntilReady();
  const runner = new SyncRunner({
    dataSource,
    markConnection: async () => undefined,
    publish: async () => undefined,
    logger: { info: () => undefined, warn: () => undefined },
    shutdown: new AbortController().signal,
  });
  worker = new Worker<SyncRunPayload>('sync-streams', (job: Job<SyncRunPayload>, token?: string) => runner.run(job, token, async (run) => streamsFor(run)), {
    connection,
    prefix,
    concurrency: 2,
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
  await queue?.obliterate({ force: true }).catch(() => undefined);
  await Promise.all([queue?.close(), events?.close()]);
  await sandbox?.close();
  await dataSource?.destroy();
  await database?.drop();
});

jest.setTimeout(120_000);

describe('provider streams against the sandbox', () => {
  it('a first sync stores every receipt, line, payment, ledger entry and Printify order the sandbox serves', async () => {
    expect(await sync('etsy')).toMatchObject({ status: 'succeeded' });
    expect(await sync('printify')).toMatchObject({ status: 'succeeded' });

    const source = await sourceReceipts();
    expect(source.size).toBeGreaterThan(150);
    expect(await storedReceipts()).toEqual(source);
    const [lines] = await dataSource.query(
      `SELECT count(*)::int AS stored, sum(r.item_count)::int AS counted FROM etsy_receipt r WHERE r.user_id = $1`,
      [userId],
    );
    const [stored] = await dataSource.query(`SELECT sum(quantity)::int AS units FROM etsy_receipt_line WHERE user_id = $1`, [userId]);
    expect(stored.units).toBe(lines.counted);

    // Every PAYMENT_GROSS entry's payment is stored and linked back to its receipt.
    const [payments] = await dataSource.query(
      `SELECT count(*)::int AS sales,
              count(p.payment_id)::int AS with_payment,
              count(*) FILTER (WHERE e.receipt_id IS NOT NULL AND e.receipt_id = p.receipt_id)::int AS linked
       FROM etsy_ledger_entry e LEFT JOIN etsy_payment p ON p.user_id = e.user_id AND p.shop_id = e.shop_id AND p.payment_id = e.reference_id
       WHERE e.user_id = $1 AND e.ledger_type = 'PAYMENT_GROSS'`,
      [userId],
    );
    expect(payments.sales).toBeGreaterThan(100);
    expect(payments).toEqual({ sales: payments.sales, with_payment: payments.sales, linked: payments.sales });
    // Fees on transactions and receipts find their receipt; account-level entries stay unlinked and are not pending.
    const linkage: { reference_type: string; linked: number; total: number; pending: number }[] = await dataSource.query(
      `SELECT reference_type, count(receipt_id)::int AS linked, count(*)::int AS total, count(*) FILTER (WHERE link_pending)::int AS pending
       FROM etsy_ledger_entry WHERE user_id = $1 GROUP BY reference_type ORDER BY reference_type`,
      [userId],
    );
    for (const type of ['transaction', 'receipt', 'shop_payment']) {
      const row = linkage.find((entry) => entry.reference_type === type);
      expect(row).toBeDefined();
      expect(row?.linked).toBe(row?.total);
    }
    expect(linkage.find((entry) => entry.reference_type === 'disbursement')).toMatchObject({ linked: 0, pending: 0 });

    const printifySource = new Set<string>();
    for (let page = 1; ; page++) {
      const result = await printify.listOrders(printifyAuth, printifyShop, { page });
      result.orders.forEach((order) => printifySource.add(order.id));
      if (!result.hasNextPage) break;
    }
    const printifyStored: { order_id: string }[] = await dataSource.query(`SELECT order_id FROM printify_order WHERE user_id = $1`, [userId]);
    expect(new Set(printifyStored.map((row) => row.order_id))).toEqual(printifySource);
    expect(await count('printify_order_line')).toBeGreaterThanOrEqual(printifySource.size);
    expect(await new SyncQuarantineRepository(dataSource).listForUser(userId)).toEqual([]);
  });

  it('an immediate re-sync changes no row and makes at most two requests a stream', async () => {
    const before = await dataSource.query(
      `SELECT (SELECT max(updated_at) FROM etsy_receipt) AS receipts, (SELECT max(updated_at) FROM etsy_payment) AS payments,
              (SELECT max(updated_at) FROM printify_order) AS orders, (SELECT count(*) FROM etsy_ledger_entry) AS entries`,
    );
    const since = Date.now();
    expect(await sync('etsy')).toMatchObject({ status: 'succeeded', orders_added: 0, orders_changed: 0 });
    expect(await sync('printify')).toMatchObject({ status: 'succeeded', orders_added: 0, orders_changed: 0 });
    const etsyCalls = await requestsSince(since, 'etsy');
    expect(etsyCalls.filter((call) => call.path.includes('/receipts')).length).toBeLessThanOrEqual(2);
    expect(etsyCalls.filter((call) => call.path.includes('/ledger-entries') || call.path.includes('/payments')).length).toBeLessThanOrEqual(2);
    expect((await requestsSince(since, 'printify')).length).toBeLessThanOrEqual(2);
    const after = await dataSource.query(
      `SELECT (SELECT max(updated_at) FROM etsy_receipt) AS receipts, (SELECT max(updated_at) FROM etsy_payment) AS payments,
              (SELECT max(updated_at) FROM printify_order) AS orders, (SELECT count(*) FROM etsy_ledger_entry) AS entries`,
    );
    expect(after).toEqual(before);
  });

  it('new, paid, shipped, refunded and canceled receipts arrive with the next incremental sync', async () => {
    const older: { receipt_id: string }[] = await dataSource.query(
      `SELECT receipt_id FROM etsy_receipt WHERE user_id = $1 AND is_paid AND refunded_minor = 0 AND status NOT IN ('canceled', 'fully refunded')
       ORDER BY ordered_at LIMIT 20`,
      [userId],
    );
    const ids = older.map((row) => Number(row.receipt_id));
    const inserted = await admin<{ inserted: string[] }>('POST', `/tenants/${tenant.tenantId}/mutations`, { insert: 25 });
    const refunded = await admin<{ updated: string[] }>('POST', `/tenants/${tenant.tenantId}/mutations`, { update: { receiptIds: ids.slice(0, 10), change: 'refund' } });
    await admin('POST', `/tenants/${tenant.tenantId}/mutations`, { update: { receiptIds: ids.slice(10), change: 'cancel' } });
    expect(inserted.inserted).toHaveLength(25);

    const result = await sync('etsy');
    expect(result.status).toBe('succeeded');
    expect(result.orders_added).toBe(25);
    expect(result.orders_changed).toBeGreaterThanOrEqual(10);
    expect(await storedReceipts()).toEqual(await sourceReceipts());
    const refundedRows: { refunded_minor: string }[] = await dataSource.query(
      `SELECT refunded_minor FROM etsy_receipt WHERE user_id = $1 AND receipt_id = ANY($2::text[])`,
      [userId, refunded.updated.map(String)],
    );
    expect(refundedRows.length).toBe(refunded.updated.length);
    for (const row of refundedRows) expect(Number(row.refunded_minor)).toBeGreaterThan(0);
    await sync('printify');
    const [{ missing }] = await dataSource.query(
      `SELECT count(*)::int AS missing FROM etsy_receipt r WHERE r.user_id = $1 AND r.receipt_id = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.receipt_id = r.receipt_id)`,
      [userId, inserted.inserted.map(String)],
    );
    expect(missing).toBe(0);
  });
});
