import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { SyncRunsRepository, type SyncRun } from '@pod/db';
import { RedisRateLimiter } from '@pod/integrations';
import {
  DEFAULT_LOOKBACKS,
  etsyLedgerStream,
  etsyReceiptsStream,
  printifyOrdersStream,
  type SyncStream,
} from '@pod/sync';
import { deleteRedisPrefix, FAULT_OPERATION_KINDS, uniqueRedisPrefix, type FaultOperationKind } from '@pod/testing';
import { InProcessSyncBed, REDIRECT } from './support/in-process-sync';
import { OperationFaults, type InjectedFault } from './support/operation-faults';
import { diffVersions, duplicateKeys, SourceOracle, storedVersions, type RecordVersion } from './support/sync-fleet';

/**
 * Security plan item 3, throwing mode: a first sync of a 2,000-order seller (Etsy receipts and
 * ledger, Printify orders) through the real clients, SyncRunner, BullMQ and PostgreSQL, with
 * the k-th PostgreSQL write, Redis command (the shared rate limiter's) or provider call failing,
 * k = 1, 2, … until a sync completes without reaching k. Each k is a fresh first sync of its own
 * user (the source is the same tenant), the failed attempt retried by BullMQ as in production.
 * After every k: the rows equal the source (ids and payload hashes), no natural key twice, the
 * run succeeded and every stream's cursor was finished by it, its pages equal to the cursor
 * moves (no page committed twice, none without its cursor).
 *
 * Cost: every k is a whole sync (5-15 s on a loaded 2-core machine), and a clean sync makes
 * ~3,200 PostgreSQL writes (COMMIT included), ~360 limiter commands and ~360 provider calls. So
 * in CI each sync carries one failure of each kind (independent: each fires once and is
 * recovered on its own), at k = 1, 2, SWEEP_SAMPLES (2) fast-check-chosen k (seed printed), the
 * last operation of the clean sync, and on until a sync no longer reaches k: about 6 syncs.
 * SWEEP=full sweeps every k of each kind alone (about 4,000 syncs: hours). The SIGKILL mode is
 * gateway/test/sync-failure-kills.int-spec.ts.
 */
const SELLER = { seed: 'failure-sweep', months: 4, ordersPerMonth: 500, printifyEnvelope: 'minimal' };
const SAMPLES = Number(process.env.SWEEP_SAMPLES ?? 2);
const FULL = process.env.SWEEP === 'full';
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);

const bed = new InProcessSyncBed('sweep');
const faults = new OperationFaults();
const limiterPrefix = uniqueRedisPrefix('sweep-limiter');
// Made in beforeAll: a connection opened at load would keep Jest alive when every test is skipped.
let limiterRedis: ReturnType<OperationFaults['redis']> | undefined;
let dataSource: DataSource;
let source: {
  receipts: Map<string, RecordVersion>;
  ledger: Map<string, RecordVersion>;
  printify: Map<string, RecordVersion>;
};
let users = 0;

function streamsFor(run: SyncRun): SyncStream<unknown>[] {
  const common = { dataSource, lookbacks: DEFAULT_LOOKBACKS, now: Date.now };
  if (run.provider === 'etsy') {
    const deps = { ...common, auth: bed.etsyAuth };
    return [
      etsyReceiptsStream(bed.etsy, deps) as SyncStream<unknown>,
      etsyLedgerStream(bed.etsy, deps) as SyncStream<unknown>,
    ];
  }
  return [
    printifyOrdersStream(bed.printify, {
      ...common,
      auth: bed.printifyAuth,
      currency: 'USD',
      syncFromMs: null,
    }) as SyncStream<unknown>,
  ];
}

/** Seeding and reading back go through bed.sql, as the login: row-level security does not restrict it. */
async function newUser(): Promise<string> {
  users += 1;
  const [{ id }] = await bed.sql<{ id: string }>(
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'S', 'W') RETURNING id`,
    [`sweep-${users}@test.invalid`],
  );
  return id;
}

/** A first sync of both providers for a new user, with `target` armed; the runs' rows. */
/** How long one first sync may take before the test reads its run as it stands (see firstSync). */
const SYNC_WAIT_MS = 240_000;

async function firstSync(targets: Partial<Record<FaultOperationKind, number>>): Promise<{
  userId: string;
  runs: { id: string; status: string; pages_done: number; error_code: string | null }[];
  fired: InjectedFault[];
  counts: OperationFaults['counts'];
}> {
  const userId = await newUser();
  const shops = { etsy: String(bed.seller.etsy.shopId), printify: String(bed.seller.printify.shops[0].id) } as const;
  const runIds = await Promise.all(
    (['etsy', 'printify'] as const).map(async (provider) => {
      const { run } = await new SyncRunsRepository(dataSource).startOrGetActive({
        userId,
        provider,
        shopId: shops[provider],
        trigger: 'user',
        mode: 'incremental',
      });
      return run.id;
    }),
  );
  faults.arm(targets);
  try {
    const runs = await Promise.all(
      runIds.map(async (runId) => {
        const job = await bed.queue.add('sync', { runId }, { jobId: runId });
        // The bound of one first sync of the 2,000-order seller, retries included. The sandbox's
        // ledger now holds every entry a shop has (issue 17: Etsy Ads daily, VAT on each fee,
        // deposits): 12,992 entries, and a clean sync takes about 90 s on CI's machine, mostly
        // the ledger's linking statements; 240 s leaves room for a sync that fails once and retries.
        await job.waitUntilFinished(bed.events, SYNC_WAIT_MS).catch(() => undefined);
        const [row] = await bed.sql<{ id: string; status: string; pages_done: number; error_code: string | null }>(
          `SELECT id, status, pages_done, error_code FROM sync_run WHERE id = $1`,
          [runId],
        );
        return row;
      }),
    );
    return { userId, runs, fired: [...faults.fired], counts: { ...faults.counts } };
  } finally {
    faults.disarm();
    // The worker keeps its tables' planner statistics fresh during a sync; this bed's runner does not.
    await bed.sql(
      `ANALYZE etsy_receipt, etsy_receipt_line, etsy_payment, etsy_ledger_entry, printify_order, printify_order_line`,
    );
  }
}

/** Item 1's invariants for one user's first sync. */
async function expectInvariants(
  userId: string,
  runs: { id: string; status: string; pages_done: number }[],
  label: string,
): Promise<void> {
  expect({ label, statuses: runs.map((run) => run.status) }).toEqual({ label, statuses: ['succeeded', 'succeeded'] });
  for (const [what, expected] of [
    ['receipts', source.receipts],
    ['ledger', source.ledger],
    ['printify', source.printify],
  ] as const) {
    const stored = await storedVersions(bed.database.url, userId, what);
    expect({ label, what, diff: diffVersions(expected, stored), size: stored.size }).toEqual({
      label,
      what,
      diff: { missing: [], extra: [], changed: [] },
      size: expected.size,
    });
  }
  expect({ label, duplicates: await duplicateKeys(bed.database.url, userId) }).toEqual({ label, duplicates: [] });
  const cursors: { provider: string; version: number; position: { completedByRun: string | null } }[] = await bed.sql<{
    provider: string;
    version: number;
    position: { completedByRun: string | null };
  }>(`SELECT provider, version, position FROM sync_cursor WHERE user_id = $1`, [userId]);
  for (const run of runs) {
    const provider = run === runs[0] ? 'etsy' : 'printify';
    const mine = cursors.filter((cursor) => cursor.provider === provider);
    expect({ label, provider, finishedBy: mine.map((cursor) => cursor.position.completedByRun) }).toEqual({
      label,
      provider,
      finishedBy: mine.map(() => run.id),
    });
    expect({ label, provider, pages: run.pages_done }).toEqual({
      label,
      provider,
      pages: mine.reduce((sum, cursor) => sum + cursor.version, 0),
    });
  }
}

/**
 * The k to try for one kind: every k with SWEEP=full; else k = 1, 2, the last operation of the
 * clean sync, and SWEEP_SAMPLES (2) fast-check-chosen k in between (seed printed; FC_SEED
 * replays), so successive CI runs cover different points.
 */
function sweepPoints(total: number, random: fc.Arbitrary<number[]>): number[] {
  if (FULL) return Array.from({ length: total }, (_, i) => i + 1);
  const [between] = fc.sample(random, { seed: SEED, numRuns: 1 });
  return [...new Set([1, 2, ...between, total])].sort((a, b) => a - b);
}

/**
 * Runs first syncs, the i-th failing at points[kind][i] for every kind given, until each kind
 * had a sync that completed without reaching its k (a kind past its points goes on with the
 * next k). Item 1's invariants after every sync.
 */
async function sweep(points: Partial<Record<FaultOperationKind, number[]>>): Promise<number> {
  const firedAt = new Set<FaultOperationKind>();
  const pending = new Map(Object.entries(points).map(([kind, list]) => [kind as FaultOperationKind, [...list]]));
  let syncs = 0;
  for (let index = 0; pending.size > 0; index += 1) {
    const targets: Partial<Record<FaultOperationKind, number>> = {};
    for (const [kind, list] of pending) {
      if (index >= list.length) list.push(list[list.length - 1] + 1);
      targets[kind] = list[index];
    }
    const label = JSON.stringify(targets);
    const started = Date.now();
    const result = await firstSync(targets);
    syncs += 1;
    console.log(
      `item 3 sync ${syncs}, failing at ${label}: fired ${JSON.stringify(result.fired.map((fault) => fault.message))}, ${Date.now() - started} ms`,
    );
    await expectInvariants(result.userId, result.runs, label);
    for (const kind of Object.keys(targets) as FaultOperationKind[]) {
      const fired = result.fired.some((fault) => fault.kind === kind);
      if (fired) firedAt.add(kind);
      // A sync that never reached k: the sweep of this kind is over.
      if (!fired) pending.delete(kind);
      else if (index >= (points[kind]?.length ?? 0) + 20)
        throw new Error(`${kind}: still reaching k = ${targets[kind]}, far past the clean sync's count`);
    }
  }
  // Every kind swept must have failed a sync at least once (k = 1 always exists): a sweep that
  // injected nothing proved nothing.
  expect(Object.keys(points).filter((kind) => !firedAt.has(kind as FaultOperationKind))).toEqual([]);
  return syncs;
}

beforeAll(async () => {
  limiterRedis = faults.redis();
  const limiter = new RedisRateLimiter({ redis: limiterRedis, keyPrefix: limiterPrefix });
  await bed.start({
    sandbox: { etsyQps: 5_000, etsyQpd: 100_000_000, printifyRpm: 300_000 },
    seller: SELLER,
    attempts: 4,
    clientLimits: { etsyPerSecond: 5_000, printifyPerMinute: 300_000 },
    clientDeps: { fetch: faults.fetch(), limiter },
  });
  dataSource = bed.dataSource;
  faults.instrumentDataSource(dataSource);
  bed.runStreams(streamsFor);
}, 120_000);

afterAll(async () => {
  await bed.stop();
  limiterRedis?.disconnect();
  await deleteRedisPrefix(limiterPrefix);
});

jest.setTimeout(1_200_000);

describe('item 3: failure-point sweep, throwing at the k-th operation', () => {
  let clean: OperationFaults['counts'];

  it('a clean first sync of 2,000 orders equals the source (the baseline and the oracle)', async () => {
    const started = Date.now();
    const baseline = await firstSync({});
    clean = baseline.counts;
    const oracle = await new SourceOracle(
      bed.sandboxUrl,
      (m, p, b) => bed.admin(m, p, b),
      bed.seller,
      REDIRECT,
    ).connect();
    const receipts = await oracle.receipts();
    const [{ oldest }] = await bed.sql<{ oldest: Date }>(
      `SELECT min(ordered_at) AS oldest FROM etsy_receipt WHERE user_id = $1`,
      [baseline.userId],
    );
    const ledger = await oracle.ledger(Math.floor(oldest.getTime() / 1000) - 86_400, Math.floor(Date.now() / 1000));
    source = { receipts, ledger, printify: await oracle.printifyOrders() };
    console.log(
      `item 3 baseline: ${receipts.size} receipts, ${ledger.size} ledger entries, ${source.printify.size} Printify orders; operations of a clean sync ${JSON.stringify(clean)} in ${Date.now() - started} ms`,
    );
    expect(receipts.size).toBe(2_000);
    await expectInvariants(baseline.userId, baseline.runs, 'baseline');
  });

  // One mode or the other runs; the other's tests show as skipped, not as passed without work.
  const ciIt = FULL ? it.skip : it;
  const fullIt = FULL ? it : it.skip;

  ciIt(
    'CI: each sync fails once at the k-th PostgreSQL write, the k-th Redis command and the k-th provider call; every one converges to the source',
    async () => {
      const points = Object.fromEntries(
        FAULT_OPERATION_KINDS.map((kind) => [
          kind,
          sweepPoints(
            clean[kind],
            fc.uniqueArray(fc.integer({ min: 3, max: clean[kind] - 1 }), { minLength: SAMPLES, maxLength: SAMPLES }),
          ),
        ]),
      );
      console.log(
        `item 3 throwing sweep, one failure of each kind per sync: k ${JSON.stringify(points)} (fast-check seed ${SEED}; FC_SEED=${SEED} replays; SWEEP=full runs every k of each kind alone)`,
      );
      const started = Date.now();
      const syncs = await sweep(points);
      console.log(`item 3 throwing sweep: ${syncs} first syncs of 2,000 orders in ${Date.now() - started} ms`);
    },
  );

  fullIt.each(FAULT_OPERATION_KINDS)(
    'SWEEP=full: a failure at every k-th %s alone, k = 1, 2, … until a sync never reaches k',
    async (kind) => {
      const started = Date.now();
      const syncs = await sweep({ [kind]: sweepPoints(clean[kind], fc.constant([])) });
      console.log(`item 3 full sweep of ${kind}: ${syncs} first syncs in ${Date.now() - started} ms`);
    },
  );
});
