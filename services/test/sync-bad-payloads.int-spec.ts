import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { SyncRunsRepository, type SyncRun } from '@pod/db';
import type { EtsyAuth, EtsyClient, PrintifyAuth, PrintifyClient } from '@pod/integrations';
import { DEFAULT_LOOKBACKS, etsyReceiptsStream, printifyOrdersStream, type SyncStream } from '@pod/sync';
import { InProcessSyncBed, type SandboxSeller } from './support/in-process-sync';

/**
 * Security plan item 14 through the sandbox and the stream write path: fast-check picks
 * receipts (and Printify orders) of a page and breaks them in ways seen in schema drift —
 * missing fields, nulls, numbers as strings, floats, out-of-range numbers, wrong types, huge
 * strings, extra fields, a currency that differs within the record — and the sandbox's
 * patch-records knob serves them. Each case syncs a fresh user through the real clients,
 * SyncRunner, BullMQ and PostgreSQL. Pass: the run never throws (it succeeds), every invalid
 * record is in sync_quarantine with the field and a reason, every valid one is stored (none
 * lost, none twice), and every stored amount is the payload's Money converted to integer minor
 * units (never a float, NaN or an unconverted amount/divisor).
 *
 * The seed is printed; FC_SEED=<seed> replays a run. The 10 MB page and the malformed-JSON knob
 * run against the built workers in gateway/test/sync-provider-faults.int-spec.ts.
 */
const KEYSTRING = 'sandbox-keystring';
const NUM_RUNS = Number(process.env.FC_RUNS ?? 25);

type Verdict = 'store' | 'quarantine';
/** One way to break (or harmlessly change) a record: patches relative to the record, and what must happen to it. */
interface Drift {
  name: string;
  patches: { path: (string | number)[]; op: 'set' | 'delete'; value?: unknown }[];
  verdict: Verdict;
}

const set = (path: (string | number)[], value: unknown) => ({ path, op: 'set' as const, value });
const del = (path: (string | number)[]) => ({ path, op: 'delete' as const });
const HUGE = 'x'.repeat(100_000);

/** Etsy receipts (integrations.md a.5): what the schema requires, and what it must tolerate. */
const RECEIPT_DRIFT: Drift[] = [
  { name: 'receipt_id missing', patches: [del(['receipt_id'])], verdict: 'quarantine' },
  { name: 'receipt_id not an id', patches: [set(['receipt_id'], 'abc')], verdict: 'quarantine' },
  { name: 'receipt_id negative', patches: [set(['receipt_id'], -5)], verdict: 'quarantine' },
  { name: 'grandtotal missing', patches: [del(['grandtotal'])], verdict: 'quarantine' },
  { name: 'grandtotal null', patches: [set(['grandtotal'], null)], verdict: 'quarantine' },
  { name: 'amount a float', patches: [set(['grandtotal', 'amount'], 12.5)], verdict: 'quarantine' },
  { name: 'amount out of range', patches: [set(['total_price', 'amount'], 1e300)], verdict: 'quarantine' },
  { name: 'amount beyond 2^53', patches: [set(['subtotal', 'amount'], '9007199254740993')], verdict: 'quarantine' },
  { name: 'amount "NaN"', patches: [set(['grandtotal', 'amount'], 'NaN')], verdict: 'quarantine' },
  { name: 'amount an object', patches: [set(['total_tax_cost', 'amount'], { value: 1 })], verdict: 'quarantine' },
  { name: 'divisor 0', patches: [set(['grandtotal', 'divisor'], 0)], verdict: 'quarantine' },
  { name: 'divisor negative', patches: [set(['total_shipping_cost', 'divisor'], -100)], verdict: 'quarantine' },
  { name: 'unknown currency', patches: [set(['grandtotal', 'currency_code'], 'ZZZ')], verdict: 'quarantine' },
  {
    name: 'another currency inside the record',
    patches: [set(['subtotal', 'currency_code'], 'EUR')],
    verdict: 'quarantine',
  },
  {
    name: 'both creation times missing',
    patches: [del(['created_timestamp']), del(['create_timestamp'])],
    verdict: 'quarantine',
  },
  { name: 'creation time negative', patches: [set(['created_timestamp'], -1)], verdict: 'quarantine' },
  { name: 'status empty', patches: [set(['status'], '')], verdict: 'quarantine' },
  { name: 'status a number', patches: [set(['status'], 42)], verdict: 'quarantine' },
  { name: 'line price null', patches: [set(['transactions', 0, 'price'], null)], verdict: 'quarantine' },
  { name: 'line quantity a float', patches: [set(['transactions', 0, 'quantity'], 1.5)], verdict: 'quarantine' },
  { name: 'transactions not a list', patches: [set(['transactions'], 'nope')], verdict: 'quarantine' },
  { name: 'refunds an object', patches: [set(['refunds'], {})], verdict: 'quarantine' },
  { name: 'is_paid "yes"', patches: [set(['is_paid'], 'yes')], verdict: 'quarantine' },
  {
    name: 'extra fields',
    patches: [set(['extra_field'], { deep: [1, { x: null }] }), set(['grandtotal', 'extra'], true)],
    verdict: 'store',
  },
  { name: 'huge buyer name', patches: [set(['name'], HUGE)], verdict: 'store' },
  { name: 'huge unread field', patches: [set(['message_from_buyer'], HUGE)], verdict: 'store' },
  { name: 'amount as a string', patches: [set(['grandtotal', 'amount'], '__AS_STRING__')], verdict: 'store' },
  { name: 'receipt_id as a string', patches: [set(['receipt_id'], '__AS_STRING__')], verdict: 'store' },
  { name: 'is_paid as 1', patches: [set(['is_paid'], 1)], verdict: 'store' },
  { name: 'currency in lower case', patches: [set(['grandtotal', 'currency_code'], 'usd')], verdict: 'store' },
  {
    name: 'optional fields null',
    patches: [set(['buyer_user_id'], null), set(['zip'], null), set(['total_vat_cost'], null)],
    verdict: 'store',
  },
  { name: 'optional lists missing', patches: [del(['shipments']), del(['refunds'])], verdict: 'store' },
  {
    name: 'divisor 1000, amount × 10',
    patches: [set(['grandtotal', 'amount'], '__TIMES_10__'), set(['grandtotal', 'divisor'], 1000)],
    verdict: 'store',
  },
];

/** Printify orders (b.4). */
const ORDER_DRIFT: Drift[] = [
  { name: 'id missing', patches: [del(['id'])], verdict: 'quarantine' },
  { name: 'id not an id', patches: [set(['id'], 'not an id!')], verdict: 'quarantine' },
  { name: 'total_price missing', patches: [del(['total_price'])], verdict: 'quarantine' },
  { name: 'total_price a float', patches: [set(['total_price'], 12.5)], verdict: 'quarantine' },
  { name: 'total_price text', patches: [set(['total_price'], 'abc')], verdict: 'quarantine' },
  { name: 'total_tax null', patches: [set(['total_tax'], null)], verdict: 'quarantine' },
  { name: 'created_at missing', patches: [del(['created_at'])], verdict: 'quarantine' },
  { name: 'created_at not a time', patches: [set(['created_at'], 'yesterday')], verdict: 'quarantine' },
  { name: 'created_at a number', patches: [set(['created_at'], 1_700_000_000)], verdict: 'quarantine' },
  { name: 'status empty', patches: [set(['status'], '')], verdict: 'quarantine' },
  { name: 'line cost null', patches: [set(['line_items', 0, 'cost'], null)], verdict: 'quarantine' },
  { name: 'line quantity text', patches: [set(['line_items', 0, 'quantity'], 'two')], verdict: 'quarantine' },
  { name: 'line_items an object', patches: [set(['line_items'], {})], verdict: 'quarantine' },
  { name: 'address_to a string', patches: [set(['address_to'], 'nowhere')], verdict: 'quarantine' },
  { name: 'extra fields', patches: [set(['extra'], [1, 2, 3])], verdict: 'store' },
  { name: 'total_price as a string', patches: [set(['total_price'], '__AS_STRING__')], verdict: 'store' },
  { name: 'address_to null', patches: [set(['address_to'], null)], verdict: 'store' },
  { name: 'huge first name', patches: [set(['address_to', 'first_name'], HUGE)], verdict: 'store' },
  { name: 'metadata null', patches: [set(['metadata'], null)], verdict: 'store' },
  { name: 'shipments missing', patches: [del(['shipments'])], verdict: 'store' },
];

const bed = new InProcessSyncBed('badpayloads');
let dataSource: DataSource;
let sandboxUrl: string;
let tenant: SandboxSeller;
let etsy: EtsyClient;
let printify: PrintifyClient;
let etsyAuth: EtsyAuth;
let printifyAuth: PrintifyAuth;
let sourceReceipts: Record<string, unknown>[];
let sourceOrders: Record<string, unknown>[];
let printifyTotal: number;

const admin = <T>(method: string, path: string, body?: unknown): Promise<T> => bed.admin<T>(method, path, body);

function streamsFor(run: SyncRun): SyncStream<unknown>[] {
  const common = { dataSource, lookbacks: DEFAULT_LOOKBACKS, now: Date.now };
  if (run.provider === 'etsy') return [etsyReceiptsStream(etsy, { ...common, auth: etsyAuth }) as SyncStream<unknown>];
  return [
    printifyOrdersStream(printify, {
      ...common,
      auth: printifyAuth,
      currency: 'USD',
      syncFromMs: null,
    }) as SyncStream<unknown>,
  ];
}

async function sync(userId: string, provider: 'etsy' | 'printify', shopId: string): Promise<string> {
  const { run } = await new SyncRunsRepository(dataSource).startOrGetActive({
    userId,
    provider,
    shopId,
    trigger: 'user',
    mode: 'incremental',
  });
  const job = await bed.queue.add('sync', { runId: run.id }, { jobId: run.id });
  await job.waitUntilFinished(bed.events, 60_000);
  const [row] = await bed.sql<{ status: string }>(`SELECT status FROM sync_run WHERE id = $1`, [run.id]);
  return row.status;
}

/** The patches of one drift for record `index`, with placeholders filled from the clean record. */
function concrete(
  drift: Drift,
  record: Record<string, unknown>,
  index: number,
): { index: number; path: (string | number)[]; op: 'set' | 'delete'; value?: unknown }[] {
  const at = (path: (string | number)[]): unknown =>
    path.reduce<unknown>(
      (value, key) =>
        value && typeof value === 'object' ? (value as Record<string | number, unknown>)[key] : undefined,
      record,
    );
  return drift.patches.map((patch) => {
    if (patch.value === '__AS_STRING__') return { ...patch, index, value: String(at(patch.path)) };
    if (patch.value === '__TIMES_10__') return { ...patch, index, value: Number(at(patch.path)) * 10 };
    return { ...patch, index };
  });
}

/** amount / divisor in minor units of a 2-decimal currency (USD, EUR, GBP), for stored amounts to be compared with. */
function minorOf(money: { amount: unknown; divisor: unknown }): number {
  return (Number(money.amount) * 100) / Number(money.divisor);
}

beforeAll(async () => {
  // 150 receipts: two pages, so a bad record at the end of page 1 meets the keyset's fallback to offsets.
  await bed.start({
    sandbox: { etsyQps: 1_000, etsyQpd: 10_000_000, printifyRpm: 100_000 },
    seller: { seed: 'bad-payloads', months: 1, ordersPerMonth: 150, printifyEnvelope: 'minimal' },
    attempts: 1,
    clientLimits: { etsyPerSecond: 1_000, printifyPerMinute: 60_000 },
  });
  ({ dataSource, sandboxUrl, etsy, printify, etsyAuth, printifyAuth, seller: tenant } = bed);
  const tokens = { accessToken: bed.accessToken };
  const firstReceipts = await fetch(
    `${sandboxUrl}/v3/application/shops/${tenant.etsy.shopId}/receipts?min_created=946684800&sort_on=created&sort_order=asc&limit=100&offset=0`,
    {
      headers: { 'x-api-key': `${KEYSTRING}:sandbox-shared-secret`, authorization: `Bearer ${tokens.accessToken}` },
    },
  );
  sourceReceipts = ((await firstReceipts.json()) as { results: Record<string, unknown>[] }).results;
  const firstOrders = await fetch(`${sandboxUrl}/v1/shops/${tenant.printify.shops[0].id}/orders.json?limit=10&page=1`, {
    headers: { authorization: `Bearer ${tenant.printify.token}`, 'user-agent': 'tests' },
  });
  sourceOrders = ((await firstOrders.json()) as { data: Record<string, unknown>[] }).data;
  expect(sourceReceipts).toHaveLength(100);
  expect(sourceOrders).toHaveLength(10);
  printifyTotal = 0;
  for (let page = 1; ; page++) {
    const result = await printify.listOrders(printifyAuth, String(tenant.printify.shops[0].id), { page });
    printifyTotal += result.orders.length;
    if (!result.hasNextPage) break;
  }

  bed.runStreams(streamsFor);
}, 60_000);

afterAll(() => bed.stop());

jest.setTimeout(180_000);

it('item 14: generated bad receipts and Printify orders are quarantined with a reason, good ones stored, amounts always converted integers', async () => {
  const seed = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
  console.log(`item 14 fast-check seed ${seed} (${NUM_RUNS} runs; FC_SEED=${seed} replays them)`);
  const damage = (drifts: Drift[], size: number) =>
    fc.uniqueArray(fc.record({ index: fc.integer({ min: 0, max: size - 1 }), drift: fc.constantFrom(...drifts) }), {
      minLength: 1,
      maxLength: Math.min(size, 12),
      selector: (hit) => hit.index,
    });
  let users = 0;
  await fc.assert(
    fc.asyncProperty(damage(RECEIPT_DRIFT, 100), damage(ORDER_DRIFT, 10), async (receiptHits, orderHits) => {
      users += 1;
      const [{ id: userId }] = await bed.sql<{ id: string }>(
        `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'B', 'P') RETURNING id`,
        [`bad-${seed}-${users}@test.invalid`],
      );
      await admin('POST', '/faults', {
        target: 'etsy',
        kind: 'patch-records',
        match: { pathPrefix: `/v3/application/shops/${tenant.etsy.shopId}/receipts`, tenantId: tenant.tenantId },
        patches: receiptHits.flatMap((hit) => concrete(hit.drift, sourceReceipts[hit.index], hit.index)),
      });
      await admin('POST', '/faults', {
        target: 'printify',
        kind: 'patch-records',
        match: { pathPrefix: `/v1/shops/${tenant.printify.shops[0].id}/orders.json`, tenantId: tenant.tenantId },
        patches: orderHits.flatMap((hit) => concrete(hit.drift, sourceOrders[hit.index], hit.index)),
      });
      // The worker never crashes: each run ends, and succeeds with what could be read.
      expect(await sync(userId, 'etsy', String(tenant.etsy.shopId))).toBe('succeeded');
      expect(await sync(userId, 'printify', String(tenant.printify.shops[0].id))).toBe('succeeded');

      const quarantined: { provider: string; record_key: string; field: string; reason: string }[] = await bed.sql(
        `SELECT provider, record_key, field, reason FROM sync_quarantine WHERE user_id = $1`,
        [userId],
      );
      for (const row of quarantined) {
        expect(row.field.length).toBeGreaterThan(0);
        expect(row.reason.length).toBeGreaterThan(0);
      }
      const check = async (
        provider: 'etsy' | 'printify',
        hits: typeof receiptHits,
        source: Record<string, unknown>[],
        idKey: string,
        table: string,
        column: string,
        total: number,
      ) => {
        const bad = hits.filter((hit) => hit.drift.verdict === 'quarantine');
        const badIds = new Set(bad.map((hit) => String(source[hit.index][idKey])));
        const stored: { id: string }[] = await bed.sql(`SELECT ${column} AS id FROM ${table} WHERE user_id = $1`, [
          userId,
        ]);
        const storedIds = new Set(stored.map((row) => row.id));
        const mine = quarantined.filter((row) => row.provider === provider);
        for (const hit of bad) {
          const id = String(source[hit.index][idKey]);
          // Keyed by the id as served (the patched one when readable), or by the payload's hash
          // (`#…`, never its page or position) when unreadable; the count below pairs them up.
          const served = hit.drift.patches.find(
            (patch) => patch.path.length === 1 && patch.path[0] === idKey && patch.op === 'set',
          )?.value;
          const keys = new Set([id, String(served)]);
          const keyed = mine.some((row) => keys.has(row.record_key) || /^#[A-Za-z0-9_-]{43}$/.test(row.record_key));
          if (!keyed || storedIds.has(id))
            throw new Error(
              `${provider} record ${hit.index} (${hit.drift.name}, id ${id}) was not quarantined (stored: ${storedIds.has(id)}): ${JSON.stringify(mine)}`,
            );
        }
        // Every bad record is quarantined (by id when its id is readable), every good one stored once.
        expect({ provider, quarantined: mine.length }).toEqual({ provider, quarantined: bad.length });
        expect(stored.length).toBe(total - bad.length);
        for (const hit of hits.filter((h) => h.drift.verdict === 'store')) {
          if (!storedIds.has(String(source[hit.index][idKey])))
            throw new Error(`${provider} record ${hit.index} (${hit.drift.name}) was not stored`);
        }
        expect([...badIds].filter((id) => storedIds.has(id))).toEqual([]);
      };
      await check('etsy', receiptHits, sourceReceipts, 'receipt_id', 'etsy_receipt', 'receipt_id', 150);
      await check('printify', orderHits, sourceOrders, 'id', 'printify_order', 'order_id', printifyTotal);

      // Money columns hold the payload's amounts converted to integer minor units, as received.
      const receipts: {
        payload: Record<string, { amount: unknown; divisor: unknown }>;
        grandtotal_minor: string;
        subtotal_minor: string;
        total_price_minor: string;
      }[] = await bed.sql(
        `SELECT payload, grandtotal_minor, subtotal_minor, total_price_minor FROM etsy_receipt WHERE user_id = $1`,
        [userId],
      );
      for (const row of receipts) {
        for (const [column, field] of [
          ['grandtotal_minor', 'grandtotal'],
          ['subtotal_minor', 'subtotal'],
          ['total_price_minor', 'total_price'],
        ] as const) {
          expect(row[column]).toMatch(/^-?\d+$/);
          expect(Math.abs(Number(row[column]) - minorOf(row.payload[field]))).toBeLessThanOrEqual(0.5);
        }
      }
      const lines: { unit_price_minor: string; price: { amount: unknown; divisor: unknown } }[] = await bed.sql(
        `SELECT l.unit_price_minor, t -> 'price' AS price FROM etsy_receipt_line l
         JOIN etsy_receipt r ON r.user_id = l.user_id AND r.shop_id = l.shop_id AND r.receipt_id = l.receipt_id
         CROSS JOIN LATERAL jsonb_array_elements(r.payload -> 'transactions') t
         WHERE l.user_id = $1 AND (t ->> 'transaction_id') = l.transaction_id`,
        [userId],
      );
      expect(lines.length).toBeGreaterThanOrEqual(receipts.length);
      for (const line of lines)
        expect(Math.abs(Number(line.unit_price_minor) - minorOf(line.price))).toBeLessThanOrEqual(0.5);
      const printifyRows: {
        payload: { total_price: unknown; total_tax: unknown };
        total_price_minor: string;
        total_tax_minor: string;
      }[] = await bed.sql(`SELECT payload, total_price_minor, total_tax_minor FROM printify_order WHERE user_id = $1`, [
        userId,
      ]);
      for (const row of printifyRows) {
        expect(row.total_price_minor).toBe(String(Number(row.payload.total_price)));
        expect(row.total_tax_minor).toBe(String(Number(row.payload.total_tax)));
      }
      await admin('DELETE', '/faults');
    }),
    { seed, numRuns: NUM_RUNS, endOnFailure: true },
  );
});
