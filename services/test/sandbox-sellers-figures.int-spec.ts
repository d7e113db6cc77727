import type { DataSource } from 'typeorm';
import { createDataSource, FxRatesRepository, ProfitSettingsRepository } from '@pod/db';
import { parseEcbXml, toFxRateRows } from '@pod/integrations';
import { UserMatcher, UserProfits } from '@pod/orders';
import { queryDatabase } from '@pod/testing';
import { ensureBuilt, pollUntil, startWorker, type WorkerProcess } from './support/fleet';
import { SandboxProviders } from '../../gateway/test/support/sandbox-providers';
import { connectSeller, runsOf, triggerSync, type Seller } from '../../gateway/test/support/sync-sellers';
import { GatewayTestBed, ORIGIN, type TestGateway } from '../../gateway/test/support/test-gateway';

/**
 * The sandbox's demo sellers through the real sync and the profit engine (ADR 0026): a US
 * seller, a UK seller listing in USD with a GBP payment account, and a UK VAT-registered
 * seller listing in GBP. Every order gets figures (no `rate_unavailable`, no negative revenue),
 * the UK-USD seller's paid orders carry the 2.5 % conversion fee on their revenue, and the
 * VAT-registered seller's domestic sales lose the 20 % VAT inside their prices.
 *
 * Here rather than in services/matcher: workers never import the gateway, whose test support
 * connects the sellers through the real OAuth flow.
 */
const REDIRECT_URI = `${ORIGIN}/api/connections/etsy/callback`;
const bed = new GatewayTestBed();
const sandbox = new SandboxProviders();
const workers: WorkerProcess[] = [];
let gw: TestGateway;
let dataSource: DataSource;

beforeAll(async () => {
  ensureBuilt();
  await sandbox.start(REDIRECT_URI);
  await sandbox.admin('PATCH', '/settings', { etsyQps: 50, printifyRpm: 6_000 });
  await bed.setUp();
  const env = {
    DATABASE_URL: bed.database.url,
    REDIS_PREFIX: bed.redisPrefix,
    ...sandbox.env(REDIRECT_URI),
    ETSY_REQUESTS_PER_SECOND: '50',
    PRINTIFY_REQUESTS_PER_MINUTE: '6000',
  };
  gw = await bed.start(env);
  for (const name of ['etsy-sync', 'printify-sync'] as const) workers.push(await startWorker(name, env));
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 2 },
    'demo-sellers',
  ).initialize();
  // The ECB rates the sandbox serves, as the fx-rate worker would load them.
  const ecb = await fetch(`${sandbox.url}/ecb/stats/eurofxref/eurofxref-hist.xml`);
  await new FxRatesRepository(dataSource).upsertRates(toFxRateRows(parseEcbXml(await ecb.text())), 'test', new Date());
}, 120_000);

afterAll(async () => {
  await dataSource?.destroy();
  await Promise.all(workers.map((worker) => worker.stop()));
  await bed.tearDown();
  await sandbox.stop();
});

async function syncedSeller(profile: string): Promise<Seller> {
  const seller = await connectSeller(gw, sandbox, bed.database.url, { profile, months: 2, ordersPerMonth: 15 });
  for (const provider of ['etsy', 'printify'] as const) {
    // Connecting may have queued a run already: then this one is refused (409) and that one counts.
    await triggerSync(gw, seller, provider).catch(() => undefined);
    await pollUntil(
      `${profile} ${provider} sync`,
      async () => {
        const runs = await runsOf(bed.database.url, seller, provider);
        if (runs.some((run) => run.status === 'failed')) throw new Error(`${provider} sync failed`);
        return runs.length > 0 && runs.every((run) => run.status === 'succeeded') ? true : undefined;
      },
      120_000,
      250,
    );
  }
  return seller;
}

interface Line {
  kind: string;
  original: { minor: number; currency: string };
}
interface FigureRow {
  figures: string;
  revenue_minor: string | null;
  breakdown: { revenueOriginal: { minor: number; currency: string } | null; revenueLines: Line[]; costLines: Line[] };
}

async function figuresOf(seller: Seller): Promise<FigureRow[]> {
  await new UserMatcher(dataSource).matchUser(seller.userId, new Date());
  await new UserProfits(dataSource, () => new Date()).computeUser(seller.userId);
  return queryDatabase<FigureRow>(
    bed.database.url,
    `SELECT figures, revenue_minor, breakdown FROM order_profit WHERE user_id = $1`,
    [seller.userId],
  );
}

function expectSoundFigures(rows: readonly FigureRow[]) {
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.filter((row) => row.figures === 'rate_unavailable')).toEqual([]);
  expect(rows.filter((row) => row.revenue_minor !== null && Number(row.revenue_minor) < 0)).toEqual([]);
  expect(rows.filter((row) => (row.breakdown.revenueOriginal?.minor ?? 0) < 0)).toEqual([]);
}

const withRevenue = (rows: readonly FigureRow[]) =>
  rows.filter((row) => row.breakdown.revenueOriginal && row.breakdown.revenueOriginal.minor > 0);

it('figures every order of the US seller', async () => {
  const rows = await figuresOf(await syncedSeller('us-seller'));
  expectSoundFigures(rows);
  expect(rows.flatMap((row) => row.breakdown.costLines).some((line) => line.kind === 'currency_conversion')).toBe(
    false,
  );
}, 300_000);

it("charges the UK-USD seller's orders 2.5% of their revenue for the conversion", async () => {
  const rows = await figuresOf(await syncedSeller('uk-usd-listing'));
  expectSoundFigures(rows);
  const sold = withRevenue(rows);
  expect(sold.length).toBeGreaterThan(5);
  for (const row of sold) {
    const revenue = row.breakdown.revenueOriginal!;
    const fee = row.breakdown.costLines.filter((line) => line.kind === 'currency_conversion');
    // 2.5% of the revenue in USD, half to even (within a cent of the exact quarter-cents).
    expect(fee).toHaveLength(1);
    expect(fee[0].original.currency).toBe('USD');
    expect(Math.abs(fee[0].original.minor - (revenue.minor * 250) / 10_000)).toBeLessThanOrEqual(0.5);
  }
}, 300_000);

it("takes the VAT inside a UK VAT-registered seller's domestic prices out of revenue", async () => {
  const seller = await syncedSeller('uk-vat-registered');
  await new ProfitSettingsRepository(dataSource).update(seller.userId, { vatRegistered: true });
  const rows = await figuresOf(seller);
  expectSoundFigures(rows);
  const taxed = withRevenue(rows).filter((row) =>
    row.breakdown.revenueLines.some((line) => line.kind === 'vat_in_prices'),
  );
  expect(taxed.length).toBeGreaterThan(3);
  for (const row of taxed) {
    const vat = row.breakdown.revenueLines.find((line) => line.kind === 'vat_in_prices')!.original.minor;
    const net = row.breakdown.revenueOriginal!.minor;
    // The price held gross = net + VAT, and VAT = gross × 20 ÷ 120 rounded to the cent.
    expect(Math.abs(vat - (net + vat) / 6)).toBeLessThanOrEqual(0.5);
  }
}, 300_000);
