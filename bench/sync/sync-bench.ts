/**
 * npm run bench:sync — a seller's first sync of BENCH_RECEIPTS (10,000) Etsy receipts and
 * their Printify orders from the sandbox at Etsy's and Printify's real limits (10 requests a
 * second per Etsy token, 600 a minute per Printify account), once with one process of each
 * sync worker and once with three (BENCH_REPLICAS, default "1,3"), each case on its own
 * database, Redis prefix, sandbox and seller. Then an immediate re-sync, then every replica at
 * once on the seller's budgets (refresh jobs), to see the limits hold across processes.
 *
 * Per case: the time from the second connect (which starts both first syncs) until both runs
 * finished, as a ratio of the least the limits allow for the requests made (the larger of
 * Etsy's requests ÷ 10/s and Printify's ÷ 10/s, since both run at once; goal ≤ 1.1); the 429s
 * in the sandbox's request log (goal 0) and each budget's busiest sliding window there; the
 * requests the re-sync makes per stream (goal ≤ 2 each).
 *
 * Environment: BENCH_RECEIPTS (orders in the seller's shop, default 10000), BENCH_REPLICAS
 * (default "1,3"), BENCH_CONTENTION (Printify refresh jobs in the contention phase, with 43% as many
 * Etsy ones; default receipts ÷ 14, at most 700; 0 skips it), BENCH_ETSY_QPD (the sandbox's Etsy daily quota,
 * default its own 10,000), BENCH_CASE_TIMEOUT_MINUTES, BENCH_LOG_DIR (keep every process's output
 * there). Needs PostgreSQL and Redis, as the tests do.
 */
import 'reflect-metadata';
import { cpus, loadavg } from 'node:os';
import { consentGrantBody, queryDatabase, type TestSandbox } from '@pod/testing';
import { ensureFreshServerBuild } from '../support/build';
import { GatewaySession } from '../support/gateway-session';
import {
  busiestWindow,
  etsyTokenBudget,
  printifyAccountBudget,
  requestsOf,
  tightestSpan,
  type LoggedRequest,
} from '../support/sandbox-log';
import { cleanUpEverything, startBenchStack } from '../support/stack';
import { formatTable } from '../support/table';
import { contendForBudgets, type ContentionResult } from './contention';

const MONTHS = 12;
const STREAMS = ['etsy:receipts', 'etsy:ledger', 'printify:orders'] as const;
type StreamName = (typeof STREAMS)[number];

function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

const RECEIPTS = intFromEnv('BENCH_RECEIPTS', 10_000, 12, 250_000);
const REPLICAS = (process.env.BENCH_REPLICAS ?? '1,3').split(',').map((part) => {
  const value = Number(part.trim());
  if (!Number.isInteger(value) || value < 1 || value > 5)
    throw new Error('BENCH_REPLICAS must list replica counts from 1 to 5, e.g. "1,3"');
  return value;
});
/** 700 Printify refreshes outlast Printify's 60-call burst by over a minute, so a full sliding minute is tested. */
const CONTENTION = intFromEnv('BENCH_CONTENTION', Math.min(700, Math.floor(RECEIPTS / 14)), 0, 5_000);
const ETSY_QPD = process.env.BENCH_ETSY_QPD ? intFromEnv('BENCH_ETSY_QPD', 10_000, 1, 100_000_000) : null;
/** Generous: several times what the limits need at this size, and at least 10 minutes. */
const CASE_TIMEOUT_MS =
  intFromEnv('BENCH_CASE_TIMEOUT_MINUTES', Math.max(10, Math.ceil((RECEIPTS / 10_000) * 30)), 1, 600) * 60_000;

interface SandboxTenant {
  tenantId: string;
  orders: number;
  printify: { token: string; shops: Array<{ id: number }> };
}

interface SandboxSettings {
  etsyQps: number;
  etsyQpd: number;
  printifyRpm: number;
}

interface RunView {
  id: string;
  status: string;
  errorCode: string | null;
}

interface RunRow {
  id: string;
  provider: 'etsy' | 'printify';
  started_at: Date;
  finished_at: Date;
  requests_made: number;
}

interface Budgets {
  rateLimited: number;
  busiestEtsySecond: number;
  busiestPrintifyMinute: number;
  /** The shortest time 11 Etsy / 601 Printify calls of one budget took (a 429 needs under 1 s / 60 s). */
  tightestEtsy: number | null;
  tightestPrintify: number | null;
}

interface CaseResult {
  replicas: number;
  shopOrders: number;
  stored: { receipts: number; ledgerEntries: number; payments: number; printifyOrders: number };
  settings: SandboxSettings;
  etsyRequests: number;
  printifyRequests: number;
  requestsByStream: Record<StreamName | 'other', number>;
  /** Of the ledger stream's requests, those for payments (the rest are ledger pages). */
  paymentRequests: number;
  runRequests: { etsy: number; printify: number };
  minimumMs: { etsy: number; printify: number };
  wallMs: number;
  runMs: { etsy: number; printify: number };
  first: Budgets;
  resync: { byStream: Record<StreamName | 'other', number>; rateLimited: number; wallMs: number };
  contention: (ContentionResult & Budgets & { etsyRequests: number; printifyRequests: number }) | null;
}

/** Which stream a logged request served (by its path); 'other' for connecting, token refreshes, single receipts… */
function streamOf(request: LoggedRequest): StreamName | 'other' {
  if (request.target === 'printify') return request.path.endsWith('/orders.json') ? 'printify:orders' : 'other';
  if (request.target !== 'etsy') return 'other';
  if (/\/payment-account\/ledger-entries|\/shops\/\d+\/payments$/.test(request.path)) return 'etsy:ledger';
  if (/\/shops\/\d+\/receipts$/.test(request.path)) return 'etsy:receipts';
  return 'other';
}

function countByStream(requests: readonly LoggedRequest[]): Record<StreamName | 'other', number> {
  const counts = { 'etsy:receipts': 0, 'etsy:ledger': 0, 'printify:orders': 0, other: 0 };
  for (const request of requests) counts[streamOf(request)] += 1;
  return counts;
}

function budgetsOf(requests: readonly LoggedRequest[], settings: SandboxSettings): Budgets {
  return {
    rateLimited: requests.filter((request) => request.status === 429).length,
    busiestEtsySecond: busiestWindow(requests, etsyTokenBudget, 1_000),
    busiestPrintifyMinute: busiestWindow(requests, printifyAccountBudget, 60_000),
    tightestEtsy: tightestSpan(requests, etsyTokenBudget, settings.etsyQps + 1),
    tightestPrintify: tightestSpan(requests, printifyAccountBudget, settings.printifyRpm + 1),
  };
}

const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Polls the status the web app polls until neither provider's latest run is active. */
async function bothSettled(
  session: GatewaySession,
  deadline: number,
  previous: { etsy?: string; printify?: string } = {},
): Promise<{ etsy: RunView; printify: RunView }> {
  for (;;) {
    const status = await session.json<{ etsy: RunView | null; printify: RunView | null }>(
      'GET',
      '/api/sync/status',
      undefined,
      200,
    );
    const done = (run: RunView | null, before?: string) =>
      run !== null && run.id !== before && !['queued', 'running', 'waiting_for_quota'].includes(run.status);
    for (const run of [status.etsy, status.printify]) {
      if (run?.status === 'waiting_for_quota')
        throw new Error('a run is waiting for the Etsy daily quota: raise it with BENCH_ETSY_QPD');
    }
    if (done(status.etsy, previous.etsy) && done(status.printify, previous.printify))
      return { etsy: status.etsy as RunView, printify: status.printify as RunView };
    if (Date.now() > deadline) throw new Error(`the syncs did not finish in time: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function connectEtsy(session: GatewaySession, sandbox: TestSandbox, tenantId: string): Promise<void> {
  const { authUrl } = await session.json<{ authUrl: string }>('POST', '/api/connections/etsy/oauth', undefined, 200);
  // What the consent page's "Allow access" does for the seller.
  const { code, state } = await sandbox.admin<{ code: string; state: string }>(
    'POST',
    `/tenants/${tenantId}/grant`,
    consentGrantBody(authUrl),
  );
  const callback = await session.call('GET', `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`);
  if (callback.status !== 302 || !callback.headers.get('location')?.includes('etsy=connected')) {
    throw new Error(
      `the Etsy callback answered ${callback.status} ${callback.headers.get('location') ?? (await callback.text()).slice(0, 300)}`,
    );
  }
}

async function runCase(replicas: number): Promise<CaseResult> {
  const began = Date.now();
  const deadline = began + CASE_TIMEOUT_MS;
  const stack = await startBenchStack({
    workers: ['etsy-sync', 'printify-sync'],
    replicas,
    logLabel: `sync-${replicas}`,
    // Nothing but the bench starts a sync.
    env: { SYNC_EVERY_MINUTES: '0', RESYNC_CRON: 'off' },
  });
  try {
    const { sandbox } = stack;
    console.log(`  ${elapsed(began)}: gateway, sandbox and ${stack.workers.length} worker processes healthy`);
    if (ETSY_QPD !== null) await sandbox.admin('PATCH', '/settings', { etsyQpd: ETSY_QPD });
    const settings = await sandbox.admin<SandboxSettings>('GET', '/settings');
    const tenant = await sandbox.admin<SandboxTenant>('POST', '/tenants', {
      months: MONTHS,
      ordersPerMonth: Math.ceil(RECEIPTS / MONTHS),
      printifyShops: 1,
    });
    const session = await GatewaySession.register(stack.baseUrl, `bench-sync-${replicas}`);
    await connectEtsy(session, sandbox, tenant.tenantId);

    // The second connect starts both first syncs.
    const startedAt = Date.now();
    console.log(
      `  ${elapsed(began)}: seller of ${tenant.orders} orders signed up, Etsy connected; connecting Printify starts both syncs`,
    );
    await session.json(
      'POST',
      '/api/connections/printify',
      { token: tenant.printify.token, shopId: String(tenant.printify.shops[0].id) },
      200,
    );
    const first = await bothSettled(session, deadline);
    for (const run of [first.etsy, first.printify])
      if (run.status !== 'succeeded') throw new Error(`a first sync ended ${run.status} (${run.errorCode})`);
    console.log(`  ${elapsed(began)}: both first syncs finished`);
    const runs = await queryDatabase<RunRow>(
      stack.databaseUrl,
      `SELECT id, provider, started_at, finished_at, requests_made FROM sync_run WHERE id = ANY($1)`,
      [[first.etsy.id, first.printify.id]],
    );
    const run = (provider: 'etsy' | 'printify') => runs.find((row) => row.provider === provider) as RunRow;
    const finishedAt = Math.max(run('etsy').finished_at.getTime(), run('printify').finished_at.getTime());
    const [stored] = await queryDatabase<CaseResult['stored']>(
      stack.databaseUrl,
      `SELECT (SELECT count(*)::int FROM etsy_receipt) AS "receipts", (SELECT count(*)::int FROM etsy_ledger_entry) AS "ledgerEntries",
              (SELECT count(*)::int FROM etsy_payment) AS "payments", (SELECT count(*)::int FROM printify_order) AS "printifyOrders"`,
    );
    const firstRequests = (await requestsOf(sandbox, tenant.tenantId, startedAt)).filter(
      (request) => request.timestampMs <= finishedAt,
    );
    const etsyRequests = firstRequests.filter((request) => etsyTokenBudget(request) !== null).length;
    const printifyRequests = firstRequests.filter((request) => request.target === 'printify').length;

    // An immediate re-sync of both (what "Sync All" does right after).
    const resyncAt = Date.now();
    await session.json('POST', '/api/sync/etsy', undefined, 202);
    await session.json('POST', '/api/sync/printify', {}, 202);
    await bothSettled(session, deadline, { etsy: first.etsy.id, printify: first.printify.id });
    const resyncWallMs = Date.now() - resyncAt;
    const resyncRequests = await requestsOf(sandbox, tenant.tenantId, resyncAt);
    console.log(`  ${elapsed(began)}: re-sync finished`);

    let contention: CaseResult['contention'] = null;
    if (CONTENTION > 0) {
      // Two Etsy calls a receipt against one Printify call an order: both budgets stay busy about as long.
      const result = await contendForBudgets(
        stack,
        { receipts: Math.ceil(CONTENTION * 0.43), orders: CONTENTION },
        deadline,
      );
      const requests = await requestsOf(sandbox, tenant.tenantId, result.startedAt);
      contention = {
        ...result,
        ...budgetsOf(requests, settings),
        etsyRequests: requests.filter((request) => etsyTokenBudget(request) !== null).length,
        printifyRequests: requests.filter((request) => request.target === 'printify').length,
      };
      console.log(`  ${elapsed(began)}: contention phase finished`);
    }

    return {
      replicas,
      shopOrders: tenant.orders,
      stored,
      settings,
      etsyRequests,
      printifyRequests,
      requestsByStream: countByStream(firstRequests),
      paymentRequests: firstRequests.filter(
        (request) => request.target === 'etsy' && request.path.endsWith('/payments'),
      ).length,
      runRequests: { etsy: run('etsy').requests_made, printify: run('printify').requests_made },
      minimumMs: {
        etsy: (etsyRequests / settings.etsyQps) * 1000,
        printify: (printifyRequests / (settings.printifyRpm / 60)) * 1000,
      },
      wallMs: finishedAt - startedAt,
      runMs: {
        etsy: run('etsy').finished_at.getTime() - run('etsy').started_at.getTime(),
        printify: run('printify').finished_at.getTime() - run('printify').started_at.getTime(),
      },
      first: budgetsOf([...firstRequests, ...resyncRequests], settings),
      resync: {
        byStream: countByStream(resyncRequests),
        rateLimited: resyncRequests.filter((request) => request.status === 429).length,
        wallMs: resyncWallMs,
      },
      contention,
    };
  } finally {
    await stack.stop();
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const thousands = (n: number) => n.toLocaleString('en-US');
const span = (ms: number | null) => (ms === null ? 'n/a (fewer calls)' : `${thousands(ms)} ms`);

function report(results: CaseResult[]): void {
  const column = (r: CaseResult) => `${r.replicas} replica${r.replicas === 1 ? '' : 's'}`;
  const minimum = (r: CaseResult) => Math.max(r.minimumMs.etsy, r.minimumMs.printify);
  const rateLimited = (r: CaseResult) => r.first.rateLimited + (r.contention?.rateLimited ?? 0);
  const c = (r: CaseResult, value: (contention: NonNullable<CaseResult['contention']>) => string) =>
    r.contention ? value(r.contention) : 'skipped';
  const s = results[0].settings;
  const rows: Array<[string, (r: CaseResult) => string]> = [
    ['Orders in the shop (sandbox)', (r) => thousands(r.shopOrders)],
    [
      'Stored: receipts / Printify orders',
      (r) => `${thousands(r.stored.receipts)} / ${thousands(r.stored.printifyOrders)}`,
    ],
    [
      'Stored: ledger entries / payments',
      (r) => `${thousands(r.stored.ledgerEntries)} / ${thousands(r.stored.payments)}`,
    ],
    [
      'Etsy requests: receipt pages + ledger pages + payments',
      (r) =>
        `${thousands(r.etsyRequests)}: ${thousands(r.requestsByStream['etsy:receipts'])} + ${thousands(r.requestsByStream['etsy:ledger'] - r.paymentRequests)} + ${thousands(r.paymentRequests)}`,
    ],
    ['Printify requests', (r) => thousands(r.printifyRequests)],
    [
      'Least time the limits allow: Etsy / Printify',
      (r) => `${seconds(r.minimumMs.etsy)} / ${seconds(r.minimumMs.printify)}`,
    ],
    ['Time taken (connect → both runs done)', (r) => seconds(r.wallMs)],
    ['Run time: Etsy / Printify', (r) => `${seconds(r.runMs.etsy)} / ${seconds(r.runMs.printify)}`],
    ['Time ÷ least time (goal ≤ 1.1)', (r) => (r.wallMs / minimum(r)).toFixed(3)],
    ['429 responses (goal 0)', (r) => String(rateLimited(r))],
    [
      'Busiest Etsy second / Printify minute',
      (r) =>
        `${r.first.busiestEtsySecond} of ${r.settings.etsyQps} / ${r.first.busiestPrintifyMinute} of ${r.settings.printifyRpm}`,
    ],
    [`Tightest ${s.etsyQps + 1} Etsy calls (429 under 1 s)`, (r) => span(r.first.tightestEtsy)],
    [`Tightest ${s.printifyRpm + 1} Printify calls (429 under 60 s)`, (r) => span(r.first.tightestPrintify)],
    ['Etsy daily quota used', (r) => `${thousands(r.etsyRequests)} of ${thousands(r.settings.etsyQpd)}`],
    [
      'Re-sync requests: etsy:receipts / etsy:ledger / printify:orders (goal ≤ 2 each)',
      (r) => STREAMS.map((stream) => r.resync.byStream[stream]).join(' / '),
    ],
    ['Re-sync time', (r) => seconds(r.resync.wallMs)],
    ['Contention: refresh jobs per process', (r) => c(r, (x) => Object.values(x.jobsPerProcess).join(' / '))],
    [
      'Contention: Etsy / Printify requests, time',
      (r) => c(r, (x) => `${thousands(x.etsyRequests)} / ${thousands(x.printifyRequests)}, ${seconds(x.wallMs)}`),
    ],
    ['Contention: 429s, failed jobs', (r) => c(r, (x) => `${x.rateLimited}, ${x.failedJobs}`)],
    [
      'Contention: busiest Etsy second / Printify minute',
      (r) => c(r, (x) => `${x.busiestEtsySecond} / ${x.busiestPrintifyMinute}`),
    ],
    [
      `Contention: tightest ${s.etsyQps + 1} Etsy / ${s.printifyRpm + 1} Printify calls`,
      (r) => c(r, (x) => `${span(x.tightestEtsy)} / ${span(x.tightestPrintify)}`),
    ],
  ];
  console.log(
    `\nSync bench (${new Date().toISOString().slice(0, 10)}): ${thousands(RECEIPTS)} receipts over ${MONTHS} months; sandbox limits ${s.etsyQps}/s per Etsy token, ${s.printifyRpm}/min per Printify account`,
  );
  console.log(
    formatTable(
      ['', ...results.map(column)],
      rows.map(([label, value]) => [label, ...results.map(value)]),
    ),
  );
  for (const r of results) {
    const ratio = r.wallMs / minimum(r);
    const busiest = [r.first, ...(r.contention ? [r.contention] : [])];
    const missed = [
      ratio > 1.1 ? `time ratio ${ratio.toFixed(3)} > 1.1` : null,
      rateLimited(r) > 0 ? `${rateLimited(r)} × 429` : null,
      busiest.some((b) => b.busiestEtsySecond > r.settings.etsyQps || b.busiestPrintifyMinute > r.settings.printifyRpm)
        ? 'a window over the limit'
        : null,
      STREAMS.every((stream) => r.resync.byStream[stream] <= 2) ? null : 'a re-sync stream over 2 requests',
      r.contention && r.contention.failedJobs > 0 ? `${r.contention.failedJobs} failed refresh jobs` : null,
    ].filter((m): m is string => m !== null);
    console.log(`${column(r)}: ${missed.length ? `goals missed: ${missed.join('; ')}` : 'every goal met'}`);
  }
  console.log(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, shared; load average after the bench ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
}

async function main(): Promise<void> {
  ensureFreshServerBuild();
  const results: CaseResult[] = [];
  for (const replicas of REPLICAS) {
    console.log(`Case: ${replicas} replica(s) of etsy-sync and printify-sync, ${thousands(RECEIPTS)} receipts`);
    const result = await runCase(replicas);
    console.log(
      `  first syncs took ${seconds(result.wallMs)} for ${thousands(result.etsyRequests)} Etsy and ${thousands(result.printifyRequests)} Printify requests`,
    );
    results.push(result);
  }
  report(results);
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error(error);
    await cleanUpEverything();
    process.exit(1);
  },
);
