/**
 * npm run bench:export — GET /api/orders/export for a seller with 100k orders (issue 19;
 * security test plan item 35): the built gateway's peak RSS growth during one full export
 * (goal ≤ 64 MB) and the time to the file's first byte (goal < 1 s), with the file checked to
 * hold one row per order the Orders list counts.
 *
 * The seller is the orders bench's big seller (bench/orders/seed.ts: 100k Etsy receipts and 100k
 * Printify orders, set-based SQL) among a few small ones, whose synced rows only are seeded
 * (the load bench's way: the export reads one seller's records); its records are written by the
 * matcher's own code and its figures by the compute-profits job's (in-process), so the file
 * holds real figures, fees and rates. The gateway's RSS is read from /proc every 20 ms.
 *
 * Environment: BENCH_EXPORT_SCALE (default 1: 100k orders; 0.05 for a quick check),
 * BENCH_EXPORT_GATEWAY_NODE_OPTIONS (the gateway's NODE_OPTIONS, a diagnostic),
 * BENCH_KEEP_DB=1 (keep the database and print its URL), BENCH_EXPORT_DATABASE_URL (measure again
 * on such a kept database, without seeding). Needs PostgreSQL and Redis.
 */
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { Client } from 'pg';
import type { OrdersPageResponse } from '@pod/contracts';
import { createDataSource } from '@pod/db';
import { DEFAULT_MATCHING_OPTIONS } from '@pod/domain';
import { UserMatcher } from '@pod/orders';
import { startTestStack } from '@pod/testing';
import { numberFromEnv } from '../orders/config';
import { computeBigSellerProfits } from '../orders/profits-step';
import { seedOrdersDatabase } from '../orders/seed';
import { seconds } from '../orders/timing';
import { ensureFreshServerBuild } from '../support/build';
import { GatewaySession } from '../support/gateway-session';
import { formatTable } from '../support/table';

const SCALE = numberFromEnv('BENCH_EXPORT_SCALE', 1, 0.001, 1);
const ORDERS = Math.max(1_000, Math.round(100_000 * SCALE));
const GOAL_RSS_GROWTH_MB = 64;
const GOAL_FIRST_BYTE_MS = 1_000;
const NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
const MB = 1024 * 1024;

const count = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The process's resident set size, from /proc (Linux). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('VmRSS:'));
  if (!line) throw new Error(`no VmRSS for process ${pid}`);
  return Number(line.replace(/\D+/g, '')) * 1024;
}

/** Signs in as the seeded seller: its password hash borrowed from a registered account (read-ratios.ts does the same). */
async function signInAs(baseUrl: string, client: Client, userId: string): Promise<GatewaySession> {
  await GatewaySession.register(baseUrl, 'bench-export-hash');
  const email = 'export-seller@bench.example';
  await client.query(
    `UPDATE app_user SET email = $2, password_hash = (SELECT password_hash FROM app_user WHERE email LIKE 'bench-export-hash.%' ORDER BY created_at DESC LIMIT 1)
     WHERE id = $1`,
    [userId, email],
  );
  return GatewaySession.signIn(baseUrl, email, GatewaySession.PASSWORD);
}

interface ExportRun {
  status: number;
  firstByteMs: number;
  totalMs: number;
  bytes: number;
  lines: number;
  baselineRss: number;
  peakRss: number;
}

/** One full export read as fast as the client can, the gateway's RSS sampled meanwhile. */
async function measureExport(session: GatewaySession, pid: number, path: string): Promise<ExportRun> {
  const baselineRss = rssOf(pid);
  let peakRss = baselineRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(pid));
  }, 20);
  try {
    const started = performance.now();
    const response = await fetch(`${session.baseUrl}${path}`, { headers: { cookie: session.cookieHeader } });
    if (!response.body) throw new Error(`export: ${response.status} without a body`);
    let firstByteMs = -1;
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 0x0a) lines += 1;
    }
    const totalMs = performance.now() - started;
    peakRss = Math.max(peakRss, rssOf(pid));
    return { status: response.status, firstByteMs, totalMs, bytes, lines, baselineRss, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

/** The seeded seller with 100k orders, matched and figured by the product's own code. */
async function seedFiguredSeller(): Promise<SeededSeller> {
  const seeded = await seedOrdersDatabase({ bigUserOrders: ORDERS, otherOrders: 1_000, otherUsers: 10 }, NOW, {
    sqlRecords: false,
    vacuumAnalyze: true,
    label: 'export',
  });
  console.log(`Seeded in ${seconds(seeded.totalMs)}; matching and figuring the seller's orders…`);
  const dataSource = await createDataSource(
    { DATABASE_URL: seeded.database.url, DATABASE_POOL_SIZE: 2 },
    'bench-export-match',
  ).initialize();
  const matchStarted = performance.now();
  try {
    await new UserMatcher(dataSource, DEFAULT_MATCHING_OPTIONS).matchUser(seeded.bigUserId, NOW);
  } finally {
    await dataSource.destroy();
  }
  const matchMs = performance.now() - matchStarted;
  const profits = await computeBigSellerProfits(seeded.database.url, seeded.bigUserId, NOW);
  console.log(`Matched in ${seconds(matchMs)}, figures in ${seconds(profits.ms)}.`);
  return { url: seeded.database.url, bigUserId: seeded.bigUserId, drop: () => seeded.database.drop() };
}

interface SeededSeller {
  url: string;
  bigUserId: string;
  drop(): Promise<void>;
}

/** A database an earlier run kept (BENCH_KEEP_DB=1), to measure again without seeding: its seller with the most records. */
async function keptSeller(url: string): Promise<SeededSeller> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ user_id: string }>(
      `SELECT user_id FROM order_record GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`,
    );
    if (!rows[0]) throw new Error(`${url} holds no order records`);
    return { url, bigUserId: rows[0].user_id, drop: async () => undefined };
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  console.log(
    `Export bench: ${count(ORDERS)} orders, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const keptUrl = process.env.BENCH_EXPORT_DATABASE_URL;
  const seeded = keptUrl ? await keptSeller(keptUrl) : await seedFiguredSeller();
  const client = new Client({ connectionString: seeded.url });
  try {
    ensureFreshServerBuild();
    // A diagnostic knob: V8 flags for the gateway alone (say --max-semi-space-size=4), to see how much of the growth is heap sizing.
    const nodeOptions = process.env.BENCH_EXPORT_GATEWAY_NODE_OPTIONS;
    const stack = await startTestStack({
      DATABASE_URL: seeded.url,
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
    });
    if (nodeOptions) console.log(`Gateway NODE_OPTIONS: ${nodeOptions}`);
    await client.connect();
    try {
      const pid = stack.gateway.child.pid;
      if (pid === undefined) throw new Error('the gateway has no pid');
      const session = await signInAs(stack.baseUrl, client, seeded.bigUserId);
      const listed = await session.json<OrdersPageResponse>(
        'GET',
        '/api/orders?pageSize=1&currency=USD',
        undefined,
        200,
      );
      // A small export first, so the measured one does not count the route's first load.
      await measureExport(session, pid, '/api/orders/export?days=7&currency=USD');
      const run = await measureExport(session, pid, '/api/orders/export?currency=USD');
      const rows = run.lines - 1;
      const growth = run.peakRss - run.baselineRss;
      const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
      console.log(
        `\n${formatTable(
          ['GET /api/orders/export?currency=USD', 'Measured', 'Goal'],
          [
            ['HTTP status', String(run.status), '200'],
            ['Rows in the file / orders the list counts', `${count(rows)} / ${count(listed.filteredTotal)}`, 'equal'],
            ['File size', mb(run.bytes), ''],
            [
              'Time to first byte',
              `${run.firstByteMs.toFixed(0)} ms`,
              `< ${GOAL_FIRST_BYTE_MS} ms: ${verdict(run.firstByteMs < GOAL_FIRST_BYTE_MS)}`,
            ],
            ['Whole file', seconds(run.totalMs), ''],
            ['Gateway RSS before / peak', `${mb(run.baselineRss)} / ${mb(run.peakRss)}`, ''],
            [
              'Gateway RSS growth',
              mb(growth),
              `≤ ${GOAL_RSS_GROWTH_MB} MB: ${verdict(growth <= GOAL_RSS_GROWTH_MB * MB)}`,
            ],
          ],
        )}\n`,
      );
      if (run.status !== 200 || rows !== listed.filteredTotal) process.exitCode = 1;
    } finally {
      await stack.stop();
    }
  } finally {
    await client.end().catch(() => undefined);
    if (process.env.BENCH_KEEP_DB || keptUrl) console.log(`Database kept: ${seeded.url}`);
    else await seeded.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
