import { Agent, request } from 'node:http';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@pod/db';
import { queryDatabase, startTestStack, storeGoldenRates, type TestStack } from '@pod/testing';
import { goldenDay, matchAndFigure, seedOrderSeller } from './support/order-sellers';
import { STRONG_PASSWORD, uniqueEmail } from './support/test-gateway';

/**
 * Issue 16, "one seller must never take the database from another", against the built gateway
 * (its default pool of 5): while seller A's matching lock is held (here from the test's own
 * PostgreSQL connection, as a long matcher run would) and A floods order changes, seller B's
 * Dashboard answers 200 every time and about as fast as when idle; A's changes are refused
 * with 409 matching_in_progress after a short wait, or 429 too_many_requests past A's share.
 */
let stack: TestStack;
let dataSource: DataSource;
let sellerA: Seller;
let sellerB: Seller;
let recordsOfA: string[];
const NOW = new Date();

interface Seller {
  cookie: string;
  userId: string;
}

interface Answer {
  status: number;
  code?: string;
  message?: string;
  retryAfter: string | null;
  ms: number;
}

beforeAll(async () => {
  stack = await startTestStack();
  dataSource = await createDataSource(
    { DATABASE_URL: stack.database.url, DATABASE_POOL_SIZE: 2 },
    'contention-test',
  ).initialize();
  await storeGoldenRates(dataSource, [goldenDay(NOW)]);
  sellerA = await register('contention-a');
  sellerB = await register('contention-b');
  for (const [seller, prefix] of [
    [sellerA, 'ca'],
    [sellerB, 'cb'],
  ] as const) {
    await seedOrderSeller(dataSource, seller, prefix, NOW, 6);
    await matchAndFigure(dataSource, seller.userId, NOW);
  }
  recordsOfA = (
    await queryDatabase<{ id: string }>(
      stack.database.url,
      'SELECT id FROM order_record WHERE user_id = $1 ORDER BY id',
      [sellerA.userId],
    )
  ).map((row) => row.id);
}, 120_000);

afterAll(async () => {
  for (const agent of agents.values()) agent.destroy();
  await dataSource?.destroy();
  await stack?.stop();
});

async function register(label: string): Promise<Seller> {
  const email = uniqueEmail(label);
  const response = await fetch(`${stack.baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: sameOrigin(),
    body: JSON.stringify({
      email,
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      firstName: 'Load',
      lastName: 'Seller',
    }),
  });
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`register: ${response.status} ${await response.text()}`);
  const cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0];
  const [{ id }] = await queryDatabase<{ id: string }>(stack.database.url, 'SELECT id FROM app_user WHERE email = $1', [
    email,
  ]);
  return { cookie, userId: id };
}

function sameOrigin(cookie?: string): Record<string, string> {
  return {
    origin: stack.baseUrl,
    'sec-fetch-site': 'same-origin',
    'content-type': 'application/json',
    ...(cookie ? { cookie } : {}),
  };
}

/** Each client (seller A, seller B, the probe) on its own keep-alive sockets, so no client waits for another's connection. */
const agents = new Map<string, Agent>();

async function call(method: 'GET' | 'POST', path: string, cookie?: string): Promise<Answer> {
  const agent = agents.get(cookie ?? '') ?? new Agent({ keepAlive: true });
  agents.set(cookie ?? '', agent);
  const headers = method === 'POST' ? { ...sameOrigin(cookie), 'content-length': '0' } : cookie ? { cookie } : {};
  const started = performance.now();
  const { status, text, retryAfter } = await new Promise<{ status: number; text: string; retryAfter: string | null }>(
    (resolve, reject) => {
      const req = request(`${stack.baseUrl}${path}`, { method, headers, agent, timeout: 30_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: body,
            retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          }),
        );
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    },
  );
  const ms = performance.now() - started;
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  return { status, code: body.code, message: body.message, retryAfter, ms };
}

/** Holds seller A's matching lock (the key lockUserForMatching takes) on a connection of the test's own, as a long matcher run does. */
async function holdLockOf(userId: string): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: stack.database.url });
  await client.connect();
  await client.query(`SELECT pg_advisory_lock(hashtextextended('order_record:' || $1, 0))`, [userId]);
  return async () => {
    await client.query(`SELECT pg_advisory_unlock(hashtextextended('order_record:' || $1, 0))`, [userId]);
    await client.end();
  };
}

/** Seller B's Dashboard read, at `perSecond` for `seconds`, each sent on its tick whatever the others do (open loop). */
async function dashboardReads(perSecond: number, seconds: number): Promise<Answer[]> {
  const reads: Promise<Answer>[] = [];
  for (let i = 0; i < perSecond * seconds; i += 1) {
    reads.push(call('GET', '/api/dashboard/metrics?days=30&currency=USD', sellerB.cookie));
    await new Promise((resolve) => setTimeout(resolve, 1_000 / perSecond));
  }
  return Promise.all(reads);
}

/**
 * Seller A's parallel order changes: more than the six that took every connection of the pool
 * in issue 16, within A's line (2 running + 16 waiting), so the load on the database is A's
 * whole share, held on the lock, rather than a stream of refusals that costs only gateway CPU
 * (the 429s have their own test above).
 */
const FLOOD_LOOPS = 12;

/** Seconds of B's reads compared (200 reads each side), and of the flood's start left out. */
const MEASURED_SECONDS = 20;
const ATTEMPTS = 3;
const FLOOD_START_SECONDS = 3;

/**
 * `loops` clients of seller A, each archiving and restoring A's orders back to back until
 * `until` resolves, pausing as Retry-After says after a 429. (A client that ignores it costs
 * the gateway CPU, not connections: holding that off is the per-IP throttles' job.)
 */
async function floodOfChanges(loops: number, until: Promise<unknown>): Promise<Answer[]> {
  let done = false;
  void until.then(() => (done = true));
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      for (let i = 0; !done; i += 1) {
        const id = recordsOfA[(loop + i) % recordsOfA.length];
        const answer = await call('POST', `/api/orders/${id}/${i % 2 === 0 ? 'archive' : 'restore'}`, sellerA.cookie);
        answers.push(answer);
        if (answer.status === 429)
          await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter ?? 1) * 1_000));
      }
    }),
  );
  return answers;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const slowest = (answers: Answer[]) =>
  answers
    .map((a, i) => `${(i / 10).toFixed(1)}s:${a.ms.toFixed(0)}`)
    .sort((x, y) => Number(y.split(':')[1]) - Number(x.split(':')[1]))
    .slice(0, 6)
    .join(' ');
const tally = (answers: Answer[]) =>
  answers.reduce<Record<string, number>>(
    (counts, a) => ({
      ...counts,
      [`${a.status} ${a.code ?? ''}`.trim()]: (counts[`${a.status} ${a.code ?? ''}`.trim()] ?? 0) + 1,
    }),
    {},
  );

interface Comparison {
  idle: Answer[];
  warming: Answer[];
  loaded: Answer[];
  flood: Answer[];
  health: Answer[];
  idleP99: number;
  loadedP99: number;
}

/** B's reads alone, then with A's lock held and A flooding changes (and /healthz probed meanwhile). */
async function compareIdleWithFlood(attempt: number): Promise<Comparison> {
  const idle = await dashboardReads(10, MEASURED_SECONDS);
  const release = await holdLockOf(sellerA.userId);
  let warming: Answer[] = [];
  let loaded: Answer[] = [];
  let flood: Answer[] = [];
  let health: Answer[] = [];
  try {
    let probing = true;
    const probes = (async () => {
      const answers: Answer[] = [];
      while (probing) {
        answers.push(await call('GET', '/healthz'));
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return answers;
    })();
    let stopFlood = () => {};
    const floodEnds = new Promise<void>((resolve) => (stopFlood = resolve));
    const flooding = floodOfChanges(FLOOD_LOOPS, floodEnds);
    // The flood's first seconds open the pool's idle connections (closed after 30 s idle) and
    // compile A's routes: B's reads then must still all be 200, but the comparison is of the
    // steady state the issue describes (A holding its share while B reads), not of the pool
    // opening, which B's idle phase never needed.
    warming = await dashboardReads(10, FLOOD_START_SECONDS);
    loaded = await dashboardReads(10, MEASURED_SECONDS);
    stopFlood();
    flood = await flooding;
    probing = false;
    health = await probes;
  } finally {
    await release();
  }
  const ms = (answers: Answer[]) => answers.map((a) => a.ms);
  const idleP99 = percentile(ms(idle), 99);
  const loadedP99 = percentile(ms(loaded), 99);
  // The figures, for the report and for whoever reads a failure.
  process.stdout.write(
    `contention (attempt ${attempt}): B idle p50 ${percentile(ms(idle), 50).toFixed(1)} ms p99 ${idleP99.toFixed(1)} ms; ` +
      `loaded p50 ${percentile(ms(loaded), 50).toFixed(1)} ms p99 ${loadedP99.toFixed(1)} ms; A: ${JSON.stringify(tally(flood))}\n` +
      `slowest idle ${slowest(idle)}; slowest loaded ${slowest(loaded)}\n`,
  );
  return { idle, warming, loaded, flood, health, idleP99, loadedP99 };
}

describe('one seller holding the matching lock', () => {
  it('an order change waits about a second, then 409 matching_in_progress, and changes nothing; after the lock it goes through', async () => {
    const release = await holdLockOf(sellerA.userId);
    try {
      const refused = await call('POST', `/api/orders/${recordsOfA[0]}/archive`, sellerA.cookie);
      expect(refused).toMatchObject({
        status: 409,
        code: 'matching_in_progress',
        message: 'Matching is running for your orders; try again in a moment.',
      });
      expect(refused.ms).toBeGreaterThanOrEqual(900);
      expect(refused.ms).toBeLessThan(5_000);
      const [row] = await queryDatabase<{ archived: boolean }>(
        stack.database.url,
        'SELECT archived_at IS NOT NULL AS archived FROM order_record WHERE id = $1',
        [recordsOfA[0]],
      );
      expect(row.archived).toBe(false);
    } finally {
      await release();
    }
    expect((await call('POST', `/api/orders/${recordsOfA[0]}/archive`, sellerA.cookie)).status).toBe(200);
    expect((await call('POST', `/api/orders/${recordsOfA[0]}/restore`, sellerA.cookie)).status).toBe(200);
  });

  it("at most the user's share of the pool (2 of 5) waits on the lock; past the user's line the answer is 429 with Retry-After", async () => {
    const release = await holdLockOf(sellerA.userId);
    let waitingMost = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const [{ waiting }] = await queryDatabase<{ waiting: number }>(
          stack.database.url,
          `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = 'podprofit-gateway' AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        waitingMost = Math.max(waitingMost, waiting);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let answers: Answer[];
    try {
      answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          call('POST', `/api/orders/${recordsOfA[i % recordsOfA.length]}/archive`, sellerA.cookie),
        ),
      );
    } finally {
      sampling = false;
      await sampler;
      await release();
    }
    // The default share of a pool of 5 is 2 requests at once, 16 more waiting their turn (without a connection).
    expect(waitingMost).toBeGreaterThan(0);
    expect(waitingMost).toBeLessThanOrEqual(2);
    expect(Object.keys(tally(answers)).sort()).toEqual(['409 matching_in_progress', '429 too_many_requests']);
    const tooMany = answers.filter((a) => a.status === 429);
    expect(tooMany.length).toBeGreaterThanOrEqual(40 - 2 - 16);
    expect(
      tooMany.every(
        (a) =>
          a.retryAfter === '1' && a.message === 'Too many requests from your account at once; try again in a moment.',
      ),
    ).toBe(true);
  });

  it("seller B's Dashboard at 10 reads a second: only 200s, p99 within 2x its idle p99, /healthz up, while A floods changes", async () => {
    // Warm up (first queries plan and cache), then B alone.
    await dashboardReads(10, 2);
    // A p99 of 200 reads is their second slowest, so one stall of the shared machine in the
    // loaded half (a build beside the test, say) decides it alone. A pair that misses is measured
    // again, up to ATTEMPTS times; contention (issue 16: B's p99 at 3 s, 401s) misses every time.
    // Every read of every attempt must still be a 200.
    let outcome: Comparison | undefined;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
      outcome = await compareIdleWithFlood(attempt);
      for (const reads of [outcome.idle, outcome.warming, outcome.loaded, outcome.health])
        expect(tally(reads)).toEqual({ '200': reads.length });
      expect(outcome.health.length).toBeGreaterThan(10);
      expect(
        Object.keys(tally(outcome.flood)).every(
          (key) => key === '409 matching_in_progress' || key === '429 too_many_requests',
        ),
      ).toBe(true);
      expect(outcome.flood.some((a) => a.code === 'matching_in_progress')).toBe(true);
      if (outcome.loadedP99 <= 2 * outcome.idleP99) break;
    }
    expect(outcome!.loadedP99).toBeLessThanOrEqual(2 * outcome!.idleP99);
  }, 300_000);
});
