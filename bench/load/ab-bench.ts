/**
 * npm run bench:load-ab — the dashboard's routes against two builds of the gateway in one run,
 * on one database: the base build (BENCH_AB_BASE, a folder holding gateway/src/main.js, e.g. a
 * copy of dist/ built from the base commit) and this checkout's dist/. Both gateways run at
 * once, idle but for the load; each route is loaded on A, then B (then B, A on the next round,
 * and so on), so the machine's drift falls on both. Per route and build: req/s, p50 and p99 (the
 * median of the rounds), errors, and the gateway's own CPU per answered request (utime + stime
 * of its process over the loads, from /proc), which the shared machine's noise touches least;
 * and database transactions per request (pg_stat_database of this database alone).
 *
 * Environment: BENCH_AB_DATABASE_URL (required: a database kept by
 * `BENCH_KEEP_DB=1 npm run bench:load`), BENCH_AB_BASE (required), BENCH_AB_SECONDS (10),
 * BENCH_AB_ROUNDS (3), BENCH_AB_ROUTES (the page routes whose label starts with it: "Dashboard",
 * or e.g. "Analytics"), BENCH_LOAD_CONNECTIONS (50), BENCH_LOAD_SESSIONS (50), BENCH_LOG_DIR.
 */
import 'reflect-metadata';
import { mkdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Client } from 'pg';
import { deleteRedisPrefix, REPO_ROOT, uniqueRedisPrefix } from '@pod/testing';
import { numberFromEnv } from '../orders/config';
import { ensureFreshServerBuild } from '../support/build';
import { formatTable } from '../support/table';
import type { CannonResult } from './cannon';
import { LOAD } from './config';
import { startGateway, type GatewayProcess } from './gateway-process';
import { loadRoutes } from './routes';
import { runCannon } from './run-cannon';
import { signInSellers } from './sessions';

const SECONDS = Math.round(numberFromEnv('BENCH_AB_SECONDS', 10, 1, 600));
const ROUNDS = Math.round(numberFromEnv('BENCH_AB_ROUNDS', 3, 1, 20));
const ROUTES = process.env.BENCH_AB_ROUTES || 'Dashboard';
const log = (line: string) => console.log(line);

interface Build {
  label: string;
  entry: string;
  gateway?: GatewayProcess;
  redisPrefix: string;
}

interface Sample {
  result: CannonResult;
  cpuMs: number;
  transactions: number;
}

/** The process's user + system CPU time in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function committedTransactions(client: Client): Promise<number> {
  // Statistics reach pg_stat_database when a backend goes idle, at most once a second.
  await new Promise((done) => setTimeout(done, 1_200));
  const { rows } = await client.query<{ n: string }>(
    `SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()`,
  );
  return Number(rows[0].n);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

function summary(samples: Sample[]) {
  const requests = samples.reduce((sum, s) => sum + s.result.requests, 0);
  return {
    perSecond: median(samples.map((s) => s.result.requests / s.result.seconds)),
    p50: median(samples.map((s) => s.result.p50Ms)),
    p99: median(samples.map((s) => s.result.p99Ms)),
    errors: samples.reduce((sum, s) => sum + s.result.non2xx + s.result.errors, 0),
    cpuPerRequest: samples.reduce((sum, s) => sum + s.cpuMs, 0) / Math.max(1, requests),
    // The measuring client's own read adds one transaction per sample.
    transactionsPerRequest: samples.reduce((sum, s) => sum + s.transactions - 1, 0) / Math.max(1, requests),
  };
}

async function main(): Promise<void> {
  const databaseUrl = process.env.BENCH_AB_DATABASE_URL;
  const base = process.env.BENCH_AB_BASE;
  if (!databaseUrl || !base)
    throw new Error('set BENCH_AB_DATABASE_URL (a kept bench:load database) and BENCH_AB_BASE (the base build)');
  ensureFreshServerBuild();
  const logDir = process.env.BENCH_LOG_DIR ?? join(tmpdir(), `podprofit-load-ab-${Date.now()}`);
  mkdirSync(logDir, { recursive: true });
  const builds: Build[] = [
    {
      label: 'A (base)',
      entry: relative(REPO_ROOT, resolve(base, 'gateway/src/main.js')),
      redisPrefix: uniqueRedisPrefix('ab-a'),
    },
    { label: 'B (this build)', entry: 'dist/gateway/src/main.js', redisPrefix: uniqueRedisPrefix('ab-b') },
  ];
  log(
    `Load A/B: ${LOAD.connections} connections × ${SECONDS} s per route and build, ${ROUNDS} rounds, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; logs in ${logDir}`,
  );
  const stats = new Client({ connectionString: databaseUrl });
  await stats.connect();
  try {
    for (const [i, build] of builds.entries())
      build.gateway = await startGateway({
        databaseUrl,
        redisPrefix: build.redisPrefix,
        entry: build.entry,
        logFile: resolve(logDir, `gateway-${i === 0 ? 'a' : 'b'}.log`),
      });
    // Sessions are rows of the database and the JWT key comes from APP_SECRET: good on both.
    const sessions = await signInSellers(builds[0].gateway!.baseUrl, databaseUrl, LOAD.sessions);
    log(`Signed in ${sessions.cookies.length} sellers (the biggest with ${sessions.bigSellerOrders} orders).`);
    const routes = loadRoutes(new Date()).filter((route) => route.page && route.label.startsWith(ROUTES));
    if (!routes.length) throw new Error(`no page route's label starts with "${ROUTES}" (BENCH_AB_ROUTES)`);
    routes.push(...loadRoutes(new Date()).filter((route) => route.signedIn && !route.page));
    const samples = new Map<string, Sample[]>();
    for (const build of builds)
      await runCannon({
        baseUrl: build.gateway!.baseUrl,
        paths: routes.map((r) => r.path),
        cookies: sessions.cookies,
        connections: LOAD.connections,
        seconds: 3,
      });
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const route of routes)
        for (const build of order) {
          const gateway = build.gateway!;
          const transactionsBefore = await committedTransactions(stats);
          const cpuBefore = cpuMsOf(gateway.pid);
          const result = await runCannon({
            baseUrl: gateway.baseUrl,
            paths: [route.path],
            cookies: sessions.cookies,
            connections: LOAD.connections,
            seconds: SECONDS,
          });
          const cpuMs = cpuMsOf(gateway.pid) - cpuBefore;
          const transactions = (await committedTransactions(stats)) - transactionsBefore;
          const key = `${route.label}\u0000${build.label}`;
          samples.set(key, [...(samples.get(key) ?? []), { result, cpuMs, transactions }]);
          log(
            `  round ${round + 1}, ${route.label}, ${build.label}: ${Math.round(result.requests / result.seconds)} req/s, p99 ${result.p99Ms} ms, ${(cpuMs / Math.max(1, result.requests)).toFixed(3)} CPU ms/request`,
          );
        }
    }
    const rows = routes.map((route) => {
      const [a, b] = builds.map((build) => summary(samples.get(`${route.label}\u0000${build.label}`) ?? []));
      return [
        route.label,
        `${Math.round(a.perSecond)} / ${Math.round(b.perSecond)}`,
        `${a.p50} / ${b.p50} ms`,
        `${a.p99} / ${b.p99} ms`,
        `${a.errors} / ${b.errors}`,
        `${a.cpuPerRequest.toFixed(3)} / ${b.cpuPerRequest.toFixed(3)}`,
        (b.cpuPerRequest / a.cpuPerRequest).toFixed(2),
        `${a.transactionsPerRequest.toFixed(2)} / ${b.transactionsPerRequest.toFixed(2)}`,
      ];
    });
    log(
      `\n${formatTable(
        [
          `Route (A / B, median of ${ROUNDS} rounds of ${SECONDS} s)`,
          'req/s',
          'p50',
          'p99',
          'Errors',
          'Gateway CPU ms/request',
          'B ÷ A CPU',
          'DB transactions/request',
        ],
        rows,
      )}\n`,
    );
  } finally {
    await stats.end();
    for (const build of builds) {
      await build.gateway?.stop();
      await deleteRedisPrefix(build.redisPrefix);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
