import type { DataSource } from 'typeorm';
import type { Provider } from '@pod/contracts';
import { SyncRunsRepository, SyncQuarantineRepository, type SyncRun } from '@pod/db';
import type { EtsyAuth, EtsyClient, PrintifyAuth, PrintifyClient } from '@pod/integrations';
import {
  DEFAULT_LOOKBACKS,
  etsyLedgerStream,
  etsyReceiptsStream,
  printifyOrdersStream,
  type SyncStream,
} from '@pod/sync';
import { InProcessSyncBed, type SandboxSeller } from './support/in-process-sync';

/**
 * The provider streams through the real driver, BullMQ, PostgreSQL and the sandbox (as a
 * server, seeded with a few months of orders): what they store must equal what the sandbox
 * serves, an immediate re-sync must change nothing in one or two requests a stream, and changes
 * at the source must arrive with the next incremental sync.
 */
const bed = new InProcessSyncBed('streams');
let dataSource: DataSource;
let userId: string;
let tenant: SandboxSeller;
let etsyAuth: EtsyAuth;
let printifyAuth: PrintifyAuth;
let etsy: EtsyClient;
let printify: PrintifyClient;
let etsyShop: string;
let printifyShop: string;
const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => bed.admin<T>(method, path, body);

async function requestsSince(since: number, target: 'etsy' | 'printify'): Promise<{ path: string; status: number }[]> {
  const log = await admin<{ requests: { path: string; status: number; target: string }[] }>(
    'GET',
    `/requests?since=${since}&target=${target}&limit=10000`,
  );
  return log.requests.filter((entry) => !entry.path.includes('/oauth/'));
}

function streamsFor(run: SyncRun): SyncStream<unknown>[] {
  const common = { dataSource, lookbacks: DEFAULT_LOOKBACKS, now: Date.now };
  if (run.provider === 'etsy') {
    return [
      etsyReceiptsStream(etsy, { ...common, auth: etsyAuth }) as SyncStream<unknown>,
      etsyLedgerStream(etsy, { ...common, auth: etsyAuth }) as SyncStream<unknown>,
    ];
  }
  return [
    printifyOrdersStream(printify, {
      ...common,
      auth: printifyAuth,
      currency: 'USD',
      syncFromMs: null,
    }) as SyncStream<unknown>,
  ];
}

async function sync(
  provider: Provider,
): Promise<{ status: string; orders_added: number; orders_changed: number; requests_made: number }> {
  const shopId = provider === 'etsy' ? etsyShop : printifyShop;
  const { run } = await new SyncRunsRepository(dataSource).startOrGetActive({
    userId,
    provider,
    shopId,
    trigger: 'user',
    mode: 'incremental',
  });
  const job = await bed.queue.add('sync', { runId: run.id }, { jobId: run.id });
  await job.waitUntilFinished(bed.events, 120_000);
  const [row] = await bed.sql<{ status: string; orders_added: number; orders_changed: number; requests_made: number }>(
    `SELECT status, orders_added, orders_changed, requests_made FROM sync_run WHERE id = $1`,
    [run.id],
  );
  return row;
}

async function count(table: string): Promise<number> {
  const [row] = await bed.sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]);
  return row.n;
}

/** Every receipt the sandbox serves for the shop: id → update timestamp and status. */
async function sourceReceipts(): Promise<Map<string, { updated: number; status: string }>> {
  const all = new Map<string, { updated: number; status: string }>();
  for (let created = 946_684_800, skip = 0; ;) {
    const page = await etsy.listReceipts(etsyAuth, etsyShop, {
      minCreated: created,
      sortOn: 'created',
      sortOrder: 'asc',
      limit: 100,
      offset: skip,
    });
    for (const receipt of page.receipts)
      all.set(receipt.receiptId, { updated: receipt.updatedAt.getTime() / 1000, status: receipt.status });
    if (page.receipts.length < 100) return all;
    skip += 100;
    if (skip >= 12_000) throw new Error('test shop too large for plain offsets');
  }
}

async function storedReceipts(): Promise<Map<string, { updated: number; status: string }>> {
  const rows: { receipt_id: string; updated: Date; status: string }[] = await bed.sql(
    `SELECT receipt_id, source_updated_at AS updated, status FROM etsy_receipt WHERE user_id = $1`,
    [userId],
  );
  return new Map(rows.map((row) => [row.receipt_id, { updated: row.updated.getTime() / 1000, status: row.status }]));
}

beforeAll(async () => {
  await bed.start({
    seller: { seed: 'streams', months: 4, ordersPerMonth: 60, printifyEnvelope: 'minimal' },
    attempts: 2,
  });
  ({ dataSource, etsy, printify, etsyAuth, printifyAuth, seller: tenant } = bed);
  etsyShop = String(tenant.etsy.shopId);
  printifyShop = String(tenant.printify.shops[0].id);
  [{ id: userId }] = await bed.sql(
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ('streams@test.invalid', 'x', 'S', 'T') RETURNING id`,
  );
  bed.runStreams(streamsFor);
}, 60_000);

afterAll(() => bed.stop());

jest.setTimeout(120_000);

describe('provider streams against the sandbox', () => {
  it('a first sync stores every receipt, line, payment, ledger entry and Printify order the sandbox serves', async () => {
    expect(await sync('etsy')).toMatchObject({ status: 'succeeded' });
    expect(await sync('printify')).toMatchObject({ status: 'succeeded' });

    const source = await sourceReceipts();
    expect(source.size).toBeGreaterThan(150);
    expect(await storedReceipts()).toEqual(source);
    const [lines] = await bed.sql(
      `SELECT count(*)::int AS stored, sum(r.item_count)::int AS counted FROM etsy_receipt r WHERE r.user_id = $1`,
      [userId],
    );
    const [stored] = await bed.sql(`SELECT sum(quantity)::int AS units FROM etsy_receipt_line WHERE user_id = $1`, [
      userId,
    ]);
    expect(stored.units).toBe(lines.counted);

    // Every PAYMENT_GROSS entry's payment is stored and linked back to its receipt.
    const [payments] = await bed.sql(
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
    const linkage: { reference_type: string; linked: number; total: number; pending: number }[] = await bed.sql(
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
    // Nothing is left waiting once every receipt and payment is in: VAT on account-level fees is
    // settled as unlinkable, a refund's fee credit follows its refund.
    expect(linkage.reduce((sum, entry) => sum + entry.pending, 0)).toBe(0);

    const printifySource = new Set<string>();
    for (let page = 1; ; page++) {
      const result = await printify.listOrders(printifyAuth, printifyShop, { page });
      result.orders.forEach((order) => printifySource.add(order.id));
      if (!result.hasNextPage) break;
    }
    const printifyStored: { order_id: string }[] = await bed.sql(
      `SELECT order_id FROM printify_order WHERE user_id = $1`,
      [userId],
    );
    expect(new Set(printifyStored.map((row) => row.order_id))).toEqual(printifySource);
    expect(await count('printify_order_line')).toBeGreaterThanOrEqual(printifySource.size);
    expect(await new SyncQuarantineRepository(dataSource).listForUser(userId)).toEqual([]);
  });

  it('an immediate re-sync changes no row and makes at most two requests a stream', async () => {
    const before = await bed.sql(
      `SELECT (SELECT max(updated_at) FROM etsy_receipt) AS receipts, (SELECT max(updated_at) FROM etsy_payment) AS payments,
              (SELECT max(updated_at) FROM printify_order) AS orders, (SELECT count(*) FROM etsy_ledger_entry) AS entries`,
    );
    const since = Date.now();
    expect(await sync('etsy')).toMatchObject({ status: 'succeeded', orders_added: 0, orders_changed: 0 });
    expect(await sync('printify')).toMatchObject({ status: 'succeeded', orders_added: 0, orders_changed: 0 });
    const etsyCalls = await requestsSince(since, 'etsy');
    expect(etsyCalls.filter((call) => call.path.includes('/receipts')).length).toBeLessThanOrEqual(2);
    expect(
      etsyCalls.filter((call) => call.path.includes('/ledger-entries') || call.path.includes('/payments')).length,
    ).toBeLessThanOrEqual(2);
    expect((await requestsSince(since, 'printify')).length).toBeLessThanOrEqual(2);
    const after = await bed.sql(
      `SELECT (SELECT max(updated_at) FROM etsy_receipt) AS receipts, (SELECT max(updated_at) FROM etsy_payment) AS payments,
              (SELECT max(updated_at) FROM printify_order) AS orders, (SELECT count(*) FROM etsy_ledger_entry) AS entries`,
    );
    expect(after).toEqual(before);
  });

  it('new, paid, shipped, refunded and canceled receipts arrive with the next incremental sync', async () => {
    const older: { receipt_id: string }[] = await bed.sql(
      `SELECT receipt_id FROM etsy_receipt WHERE user_id = $1 AND is_paid AND refunded_minor = 0 AND status NOT IN ('canceled', 'fully refunded')
       ORDER BY ordered_at LIMIT 20`,
      [userId],
    );
    const ids = older.map((row) => Number(row.receipt_id));
    const inserted = await admin<{ inserted: string[] }>('POST', `/tenants/${tenant.tenantId}/mutations`, {
      insert: 25,
    });
    const refunded = await admin<{ updated: string[] }>('POST', `/tenants/${tenant.tenantId}/mutations`, {
      update: { receiptIds: ids.slice(0, 10), change: 'refund' },
    });
    await admin('POST', `/tenants/${tenant.tenantId}/mutations`, {
      update: { receiptIds: ids.slice(10), change: 'cancel' },
    });
    expect(inserted.inserted).toHaveLength(25);

    const result = await sync('etsy');
    expect(result.status).toBe('succeeded');
    expect(result.orders_added).toBe(25);
    expect(result.orders_changed).toBeGreaterThanOrEqual(10);
    expect(await storedReceipts()).toEqual(await sourceReceipts());
    const refundedRows: { refunded_minor: string }[] = await bed.sql(
      `SELECT refunded_minor FROM etsy_receipt WHERE user_id = $1 AND receipt_id = ANY($2::text[])`,
      [userId, refunded.updated.map(String)],
    );
    expect(refundedRows.length).toBe(refunded.updated.length);
    for (const row of refundedRows) expect(Number(row.refunded_minor)).toBeGreaterThan(0);
    await sync('printify');
    const [{ missing }] = await bed.sql(
      `SELECT count(*)::int AS missing FROM etsy_receipt r WHERE r.user_id = $1 AND r.receipt_id = ANY($2::text[])
         AND NOT EXISTS (SELECT 1 FROM etsy_receipt_line l WHERE l.user_id = r.user_id AND l.receipt_id = r.receipt_id)`,
      [userId, inserted.inserted.map(String)],
    );
    expect(missing).toBe(0);
  });
});
