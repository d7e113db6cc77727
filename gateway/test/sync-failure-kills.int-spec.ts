import fc from 'fast-check';
import { FAULT_OPERATION_KINDS, queryDatabase, TEST_KILL_ENV, type FaultOperationKind } from '@pod/testing';
import { ensureBuilt, pollUntil, type WorkerProcess } from '../../services/test/support/fleet';
import {
  diffVersions,
  duplicateKeys,
  logEvents,
  QUEUE_OF,
  refetchedPages,
  SourceOracle,
  storedVersions,
  SyncFleet,
  type LoggedRequest,
  type ProviderName,
} from '../../services/test/support/sync-fleet';
import { SandboxProviders } from './support/sandbox-providers';
import { connectSeller, runsOf, triggerSync, type Seller } from './support/sync-sellers';
import { GatewayTestBed, ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * Security plan item 3, SIGKILL mode: the built etsy-sync and printify-sync workers SIGKILL
 * themselves (POD_TEST_KILL_AT, the workers' test-only hook) at the k-th PostgreSQL write, Redis
 * command (BullMQ's and the limiter's) or provider call of the process, during a first sync of
 * a 2,000-order seller; a replacement replica takes the stalled job up (lockDuration 2 s,
 * stalledInterval 1 s) and finishes it. After each point: item 1's invariants (rows equal the
 * source with equal payload hashes, no natural key twice, every cursor finished by the
 * succeeded run and moved once per committed page) and at most one page fetched again per kill.
 *
 * Cost: each point boots workers and runs a whole first sync, so CI runs ROUNDS (2) rounds,
 * each killing the Etsy and the Printify worker at a (kind, k) fast-check chooses (seed printed;
 * FC_SEED replays); SWEEP=full walks every k of every kind for both workers until a sync
 * completes without reaching k (days). The in-process throwing sweep is
 * services/test/sync-failure-sweep.int-spec.ts.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const SELLER = { months: 4, ordersPerMonth: 500, printifyEnvelope: 'minimal' };
const ROUNDS = Number(process.env.SWEEP_KILL_ROUNDS ?? 2);
const FULL = process.env.SWEEP === 'full';
const SEED = Number(process.env.FC_SEED ?? Date.now() % 2_147_483_647);
/**
 * About how many operations of each kind one worker makes in a first sync of this seller (the
 * in-process sweep counts ~3,200 writes and ~360 calls for both providers; the processes add
 * BullMQ's commands). A k past the real count is a valid point too: the sync never reaches it.
 */
const REACH: Record<FaultOperationKind, number> = { 'pg-write': 1_700, redis: 300, http: 210 };

const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
let gw: TestGateway;
let fleet: SyncFleet;
const dbUrl = () => bed.database.url;

type KillPoint = { kind: FaultOperationKind; at: number };
/** `finishedAfterMs`: from the kill until the replacement (or a resumed run) finished the sync. */
type PointOutcome = { provider: ProviderName; point: KillPoint; killed: boolean; finishedAfterMs: number | null };

async function workerRequests(seller: Seller, target: ProviderName): Promise<LoggedRequest[]> {
  const { requests } = await sandbox.admin<{ requests: LoggedRequest[] }>(
    'GET',
    `/requests?tenantId=${seller.tenant.tenantId}&target=${target}&limit=100000`,
  );
  return requests.filter((request) => !request.path.includes('/oauth/'));
}

/** Waits for the provider's latest run to succeed; a run whose job failed past its stalls is resumed by a new trigger, as a seller would. */
async function succeeded(seller: Seller, provider: ProviderName): Promise<void> {
  await pollUntil(
    `the ${provider} sync of ${seller.userId} succeeds`,
    async () => {
      const last = (await runsOf(dbUrl(), seller, provider)).at(-1);
      if (last?.status === 'failed') throw new Error(`the ${provider} run failed: ${last.error_code}`);
      if (last?.status === 'succeeded') return true;
      const job = last ? await fleet.queues[QUEUE_OF[provider]].getJob(last.id) : undefined;
      if (last && job && (await job.getState()) === 'failed') {
        await pollUntil(
          'the stalled-out run is interrupted',
          async () =>
            (await runsOf(dbUrl(), seller, provider)).find((run) => run.id === last.id)?.status === 'interrupted'
              ? true
              : undefined,
          10_000,
          100,
        );
        await triggerSync(gw, seller, provider);
      }
      return undefined;
    },
    180_000,
    250,
  );
}

/**
 * One round: a worker of each provider armed at its point, a new seller connected (both first
 * syncs start); once an armed worker has killed itself, a plain replica replaces it. Returns
 * the seller once both runs succeeded.
 */
async function killRound(
  points: Record<ProviderName, KillPoint>,
): Promise<{ seller: Seller; outcomes: PointOutcome[] }> {
  const armed = {} as Record<ProviderName, WorkerProcess>;
  const started: WorkerProcess[] = [];
  for (const provider of ['etsy', 'printify'] as const) {
    armed[provider] = await fleet.add(QUEUE_OF[provider], false, {
      [TEST_KILL_ENV]: `${points[provider].kind}:${points[provider].at}`,
    });
    started.push(armed[provider]);
  }
  try {
    return await runRound(points, armed, started);
  } finally {
    // The next round's armed workers must be alone on their queues (and an armed worker that
    // never reached its k must not carry its count into the next round).
    await Promise.all(started.map((worker) => worker.stop('SIGTERM', 15_000)));
  }
}

async function runRound(
  points: Record<ProviderName, KillPoint>,
  armed: Record<ProviderName, WorkerProcess>,
  started: WorkerProcess[],
): Promise<{ seller: Seller; outcomes: PointOutcome[] }> {
  const seller = await connectSeller(gw, sandbox, dbUrl(), {
    seed: `kill-${points.etsy.kind}-${points.etsy.at}-${points.printify.kind}-${points.printify.at}`,
    ...SELLER,
  });
  const outcomes = await Promise.all(
    (['etsy', 'printify'] as const).map(async (provider): Promise<PointOutcome> => {
      const worker = armed[provider];
      const result = await Promise.race([
        worker.exited.then(() => 'killed' as const),
        succeeded(seller, provider).then(() => 'finished' as const),
      ]);
      if (result === 'finished') return { provider, point: points[provider], killed: false, finishedAfterMs: null };
      const exit = await worker.exited;
      expect({ provider, exit }).toEqual({ provider, exit: { code: null, signal: 'SIGKILL' } });
      expect(logEvents(worker, 'test.killed_at')).toEqual([
        expect.objectContaining({ kind: points[provider].kind, at: points[provider].at }),
      ]);
      const killedAt = Date.now();
      started.push(await fleet.add(QUEUE_OF[provider], false));
      await succeeded(seller, provider);
      return { provider, point: points[provider], killed: true, finishedAfterMs: Date.now() - killedAt };
    }),
  );
  return { seller, outcomes };
}

/** Item 1's invariants for the seller, and at most one page fetched again per kill. */
async function expectInvariants(seller: Seller, outcomes: PointOutcome[]): Promise<void> {
  const label = JSON.stringify(
    outcomes.map((outcome) => `${outcome.provider} ${outcome.point.kind}:${outcome.point.at}`),
  );
  // Before the oracle reads the source (its requests are the seller's too).
  const refetched = {
    etsy: refetchedPages(await workerRequests(seller, 'etsy')).length,
    printify: refetchedPages(await workerRequests(seller, 'printify')).length,
  };
  const oracle = await new SourceOracle(
    sandbox.url,
    (m, p, b) => sandbox.admin(m, p, b),
    seller.tenant,
    REDIRECT_URI,
  ).connect();
  const receipts = await oracle.receipts();
  expect(receipts.size).toBe(2_000);
  const [{ oldest }] = await queryDatabase<{ oldest: Date }>(
    dbUrl(),
    `SELECT min(ordered_at) AS oldest FROM etsy_receipt WHERE user_id = $1`,
    [seller.userId],
  );
  const ledger = await oracle.ledger(Math.floor(oldest.getTime() / 1000) - 86_400, Math.floor(Date.now() / 1000));
  for (const [what, source] of [
    ['receipts', receipts],
    ['ledger', ledger],
    ['printify', await oracle.printifyOrders()],
  ] as const) {
    const stored = await storedVersions(dbUrl(), seller.userId, what);
    expect({ label, what, diff: diffVersions(source, stored), size: stored.size }).toEqual({
      label,
      what,
      diff: { missing: [], extra: [], changed: [] },
      size: source.size,
    });
  }
  expect({ label, duplicates: await duplicateKeys(dbUrl(), seller.userId) }).toEqual({ label, duplicates: [] });
  for (const provider of ['etsy', 'printify'] as const) {
    const runs = await runsOf(dbUrl(), seller, provider);
    const last = runs.at(-1);
    const cursors = await queryDatabase<{ version: number; position: { completedByRun: string | null } }>(
      dbUrl(),
      `SELECT version, position FROM sync_cursor WHERE user_id = $1 AND provider = $2`,
      [seller.userId, provider],
    );
    expect({ label, provider, finishedBy: cursors.map((cursor) => cursor.position.completedByRun) }).toEqual({
      label,
      provider,
      finishedBy: cursors.map(() => last?.id),
    });
    // Every committed page moved its cursor once: the runs' pages add up to the cursor versions.
    expect({ label, provider, pages: runs.reduce((sum, run) => sum + run.pages_done, 0) }).toEqual({
      label,
      provider,
      pages: cursors.reduce((sum, cursor) => sum + cursor.version, 0),
    });
    const kills = outcomes.filter((outcome) => outcome.provider === provider && outcome.killed).length;
    // A run that had to start over also reads Printify's look-back pages again (2 at most for these shops).
    const allowance = kills + (runs.length - 1) * (provider === 'printify' ? 2 : 0);
    expect({ label, provider, refetchedWithinAllowance: refetched[provider] <= allowance }).toEqual({
      label,
      provider,
      refetchedWithinAllowance: true,
    });
  }
}

beforeAll(async () => {
  ensureBuilt();
  await sandbox.start(REDIRECT_URI);
  await sandbox.admin('PATCH', '/settings', { etsyQps: 1_000, etsyQpd: 100_000_000, printifyRpm: 60_000 });
  await bed.setUp();
  const providerEnv = {
    ...sandbox.env(REDIRECT_URI),
    ETSY_REQUESTS_PER_SECOND: '1000',
    PRINTIFY_REQUESTS_PER_MINUTE: '60000',
  };
  gw = await bed.start(providerEnv);
  fleet = new SyncFleet(
    {
      DATABASE_URL: bed.database.url,
      REDIS_PREFIX: bed.redisPrefix,
      ...providerEnv,
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      WORKER_MAX_STALLED_COUNT: '1',
    },
    bed.redisPrefix,
  );
}, 120_000);

afterAll(async () => {
  await fleet?.stop();
  await bed.tearDown();
  await sandbox.stop();
});

jest.setTimeout(FULL ? 365 * 86_400_000 : 600_000);

describe('item 3: failure-point sweep, SIGKILLing the worker at the k-th operation', () => {
  it(
    FULL
      ? 'SWEEP=full: every k of every kind, for both workers'
      : `${ROUNDS} rounds at fast-check-chosen points of the Etsy and the Printify worker: each sync converges to the source`,
    async () => {
      const rounds: Record<ProviderName, KillPoint>[] = [];
      if (FULL) {
        for (const kind of FAULT_OPERATION_KINDS) {
          for (let at = 1, done = false; !done; at += 1) {
            const { seller, outcomes } = await killRound({ etsy: { kind, at }, printify: { kind, at } });
            await expectInvariants(seller, outcomes);
            done = outcomes.every((outcome) => !outcome.killed);
          }
        }
        return;
      }
      const point = fc
        .constantFrom(...FAULT_OPERATION_KINDS)
        .chain((kind) => fc.integer({ min: 1, max: REACH[kind] }).map((at) => ({ kind, at })));
      const [chosen] = fc.sample(
        fc.array(fc.record({ etsy: point, printify: point }), { minLength: ROUNDS, maxLength: ROUNDS }),
        { seed: SEED, numRuns: 1 },
      );
      rounds.push(...chosen);
      console.log(
        `item 3 kill points (fast-check seed ${SEED}; FC_SEED=${SEED} replays; SWEEP=full runs every k): ${JSON.stringify(rounds)}`,
      );
      for (const points of rounds) {
        const started = Date.now();
        const { seller, outcomes } = await killRound(points);
        console.log(`item 3 kill round: ${JSON.stringify(outcomes)} in ${Date.now() - started} ms`);
        await expectInvariants(seller, outcomes);
      }
    },
  );
});
