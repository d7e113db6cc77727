/**
 * npm run bench:load — the signed-in pages under 50 keep-alive connections (issue 16): a fresh
 * database of 200k orders over 500 sellers (one with 100k), its synced rows seeded with the
 * orders bench's set-based SQL and its records and figures written by the product itself (the
 * running matcher worker), no ANALYZE the product would not run; the built gateway in
 * production mode with request logging to a file, one process of each worker beside it; then,
 * per route, autocannon (its own process) for BENCH_LOAD_SECONDS while this process samples
 * /livez. Reports req/s, p50, p99 and errors per route against the goals (0 errors, p99 ≤ 200 ms,
 * or ≤ 500 ms for the Analytics page's profit aggregates as item 38 sets, /livez p99 ≤ 50 ms
 * meanwhile, GET /api/auth/user ≥ 0.5 × /livez's throughput), and with BENCH_LOAD_SOAK_MINUTES
 * a soak: the pages' mixed load for that long, every process's RSS, heap and live memory (after a
 * full GC) sampled, first against last 5 minutes. docs/adr/0022-load-bench.md says why it is built so.
 *
 * Environment: BENCH_LOAD_SCALE (default 1; 0.05 for a quick run), BENCH_LOAD_SECONDS (60),
 * BENCH_LOAD_CONNECTIONS (50), BENCH_LOAD_SESSIONS (50), BENCH_LOAD_SOAK_MINUTES (0: none),
 * BENCH_KEEP_DB=1, BENCH_LOG_DIR (where the gateway's log goes; a temporary folder otherwise),
 * BENCH_LOAD_SNAPSHOT_DIR (the soak writes every process's heap snapshots there),
 * BENCH_LOAD_ROUTES (only the routes whose label holds this text, e.g. "Analytics": the
 * warm-up and the measured load both; every route when unset).
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { ensureFreshServerBuild } from '../support/build';
import { formatTable } from '../support/table';
import { seedOrdersDatabase, type SeededDatabase } from '../orders/seed';
import { seconds } from '../orders/timing';
import { GOALS, LOAD } from './config';
import { startLoadStack, type LoadStack } from './load-stack';
import { LivezSampler } from './livez-sampler';
import { matchEverySeller } from './product-figures';
import { loadRoutes } from './routes';
import { runCannon } from './run-cannon';
import { signInSellers } from './sessions';
import { runSoak } from './soak-run';
import { routeHeader, routeRow, type RouteMeasurement } from './report';

const count = (n: number) => n.toLocaleString('en-US');
const log = (line: string) => console.log(line);

async function main(): Promise<void> {
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  log(
    `Load bench: scale ${LOAD.scale}, ${LOAD.connections} connections × ${LOAD.seconds} s per route, ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  ensureFreshServerBuild();
  log(
    `Seeding: a seller with ${count(LOAD.seed.bigUserOrders)} orders and ${count(LOAD.seed.otherOrders)} over ${count(LOAD.seed.otherUsers)} others (synced rows only)…`,
  );
  const seeded = await seedOrdersDatabase(LOAD.seed, now, { sqlRecords: false, vacuumAnalyze: false, label: 'load' });
  let stack: LoadStack | null = null;
  const stopAll = async () => {
    await stack?.stop();
    if (process.env.BENCH_KEEP_DB) log(`Database kept: ${seeded.database.url}`);
    else await seeded.database.drop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  try {
    log(`  seeded in ${seconds(seeded.totalMs)}; starting the gateway (production) and the workers…`);
    stack = await startLoadStack(seeded.database.url);
    log(`  gateway log: ${stack.gatewayLog}`);
    const matched = await matchEverySeller(seeded.database.url, stack.redisPrefix, log);
    log(
      `  the matcher worker matched ${count(matched.sellers)} sellers (${count(matched.records)} records, ${count(matched.figures)} figure rows) in ${seconds(matched.ms)}`,
    );
    log(seedSummary(seeded, matched));
    const sessions = await signInSellers(stack.baseUrl, seeded.database.url, LOAD.sessions);
    log(
      `Signed in ${sessions.cookies.length} sellers (the biggest with ${count(sessions.bigSellerOrders)} orders; ${count(sessions.signedInOrders)} orders among them).`,
    );
    const routes = loadRoutes(now).filter((route) =>
      route.label.toLowerCase().includes(LOAD.routesMatching.toLowerCase()),
    );
    if (!routes.length) throw new Error(`no route's label holds "${LOAD.routesMatching}" (BENCH_LOAD_ROUTES)`);
    const pagePaths = routes.filter((route) => route.page).map((route) => route.path);
    const warmUp = Math.min(10, LOAD.seconds);
    log(`Warm-up: every page's calls mixed, ${warmUp} s (not counted)…`);
    await runCannon({
      baseUrl: stack.baseUrl,
      paths: pagePaths,
      cookies: sessions.cookies,
      connections: LOAD.connections,
      seconds: warmUp,
    });
    const livez = new LivezSampler(stack.baseUrl, LOAD.livezEveryMs);
    const measured: RouteMeasurement[] = [];
    try {
      for (const route of routes) {
        log(`  ${route.label}…`);
        livez.start();
        const result = await runCannon({
          baseUrl: stack.baseUrl,
          paths: [route.path],
          cookies: route.signedIn ? sessions.cookies : [],
          connections: LOAD.connections,
          seconds: LOAD.seconds,
        });
        measured.push({ route, result, livez: await livez.stop() });
      }
    } finally {
      livez.close();
    }
    log(`\n${formatTable(routeHeader(LOAD.connections, LOAD.seconds), measured.map(routeRow))}\n`);
    const trivial = measured.find((m) => m.route.signedIn && !m.route.page);
    const bare = measured.find((m) => !m.route.signedIn);
    if (trivial && bare) {
      const ratio = trivial.result.requests / trivial.result.seconds / (bare.result.requests / bare.result.seconds);
      log(
        `Trivial signed-in ÷ bare throughput: ${ratio.toFixed(2)} (goal ≥ ${GOALS.trivialOverBare}: ${ratio >= GOALS.trivialOverBare ? 'met' : 'NOT met'})`,
      );
    }
    if (LOAD.soakMinutes > 0) {
      await runSoak(stack, sessions.cookies, [...pagePaths, '/api/auth/user'], LOAD.soakMinutes, LOAD.connections, log);
    }
  } finally {
    await stopAll();
  }
}

function seedSummary(seeded: SeededDatabase, matched: { records: number; figures: number; ms: number }): string {
  const synced = Object.entries(seeded.rows).filter(([table]) => table !== 'order_record' && table !== 'order_profit');
  return formatTable(
    ['Seeding (synced rows by SQL; records and figures by the matcher worker)', 'Rows / time'],
    [
      ...synced.map(([table, rows]) => [table, count(rows)]),
      ['order_record (the matcher)', count(matched.records)],
      ['order_profit (compute-profits)', count(matched.figures)],
      ...seeded.steps.map(([label, ms]) => [`time: ${label}`, seconds(ms)]),
      ['time: matcher and compute-profits, every seller', seconds(matched.ms)],
    ],
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
