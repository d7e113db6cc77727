import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import Papa from 'papaparse';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@pod/db';
import { queryDatabase, storeGoldenRates, storeSyncedOrders } from '@pod/testing';
import { DAY_MS, goldenDay, matchAndFigure, seedOrderSeller, signedInSeller } from './support/order-sellers';
import { GatewayTestBed, SAME_ORIGIN, type TestGateway } from './support/test-gateway';

/**
 * GET /api/orders/export (issue 19): the Orders list's rows and figures for the same filters and
 * display currency, as CSV (BOM, headers, formula-like text escaped, plain decimals); another
 * user's orders never in it; bad filters refused with 400; one export per user at a time (409);
 * a client that leaves stops the query and frees its connection and the lock.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let dataSource: DataSource;
let seller: { cookie: string; userId: string };
let other: { cookie: string; userId: string };
let bulky: { cookie: string; userId: string };
let port: number;
const NOW = new Date();
/** Enough bytes that a client which stops reading leaves the export open (socket buffers hold a few MB). */
const BULK_ORDERS = 1_500;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  dataSource = await createDataSource(
    { DATABASE_URL: bed.database.url, DATABASE_POOL_SIZE: 3 },
    'orders-export-test',
  ).initialize();
  await storeGoldenRates(dataSource, [goldenDay(NOW)]);
  seller = await signedInSeller(gw, bed.database.url, 'orders-export');
  other = await signedInSeller(gw, bed.database.url, 'orders-export-other');
  bulky = await signedInSeller(gw, bed.database.url, 'orders-export-bulky');
  await seedOrderSeller(dataSource, seller, 'ox', NOW, 3);
  const ago = (days: number) => new Date(NOW.getTime() - days * DAY_MS);
  // Text a spreadsheet would run as a formula, with a quote and a line break besides.
  await storeSyncedOrders(
    dataSource,
    seller.userId,
    [
      {
        shopId: 'ox-usd-shop',
        id: 'ox8001',
        buyerName: 'Mallory',
        orderedAt: ago(10),
        lines: [
          { title: '=HYPERLINK("http://evil.example","click")', sku: '+1', quantity: 1 },
          { title: '@SUM(A1)\n"quoted"', sku: '-2', quantity: 2 },
        ],
      },
    ],
    [],
  );
  await matchAndFigure(dataSource, seller.userId, NOW);
  await seedOrderSeller(dataSource, other, 'oy', NOW, 2);
  await matchAndFigure(dataSource, other.userId, NOW);
  const bigTitle = 'Oversized poster '.repeat(600);
  await storeSyncedOrders(
    dataSource,
    bulky.userId,
    [],
    Array.from({ length: BULK_ORDERS }, (_, i) => ({
      shopId: 'oz-pfy',
      id: `oz-bulk-${i}`,
      buyerName: `Bulk ${i}`,
      orderedAt: ago(1 + (i % 300)),
      lines: [{ title: `${bigTitle}${i}`, sku: `B-${i}`, quantity: 1 }],
    })),
  );
  await matchAndFigure(dataSource, bulky.userId, NOW);
  await gw.app.listen(0, '127.0.0.1');
  port = (gw.app.getHttpServer().address() as AddressInfo).port;
}, 180_000);

afterAll(async () => {
  await dataSource?.destroy();
  await bed.tearDown();
});

const get = (url: string, cookie = seller.cookie) => gw.app.inject({ method: 'GET', url, headers: { cookie } });

type CsvRow = Record<string, string>;

async function exportRows(query: string, cookie = seller.cookie): Promise<CsvRow[]> {
  const response = await get(`/api/orders/export${query}`, cookie);
  expect(response.statusCode).toBe(200);
  const parsed = Papa.parse<CsvRow>(response.body.replace(/^\ufeff/, ''), { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

interface ListRow {
  etsyReceiptId: string | null;
  printifyOrderId: string | null;
  status: string;
  matchMethod: string | null;
  revenue: { minor: number; currency: string } | null;
  cost: { minor: number; currency: string } | null;
  profit: { minor: number; currency: string } | null;
  profitMarginPercent: number | null;
  hasEstimatedFees: boolean;
  figures: string;
  orderDate: string | null;
}

async function listRows(query: string, cookie = seller.cookie): Promise<ListRow[]> {
  const response = await get(`/api/orders?pageSize=100${query ? `&${query.slice(1)}` : ''}`, cookie);
  expect(response.statusCode).toBe(200);
  return response.json().orders;
}

/** Minor units of a 2-digit currency as the file writes them. */
const decimal = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.trunc(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;
const money = (value: ListRow['revenue']) => (value ? decimal(value.minor) : '');

/** The list's row as the file must hold it. */
function expectedRow(row: ListRow, currency: string) {
  return {
    'Order date': row.orderDate?.slice(0, 10) ?? '',
    'Etsy receipt ID': row.etsyReceiptId ?? '',
    'Printify order ID': row.printifyOrderId ?? '',
    Status: row.status,
    'Match method': row.matchMethod ?? '',
    'Display currency': currency,
    Revenue: money(row.revenue),
    'Total costs': money(row.cost),
    Profit: money(row.profit),
    'Margin %': row.profitMarginPercent === null ? '' : row.profitMarginPercent.toFixed(1),
    Figures: row.figures,
    'Estimated fees': row.hasEstimatedFees ? 'yes' : 'no',
  };
}

function fileRow(row: CsvRow) {
  return {
    'Order date': row['Order date'],
    'Etsy receipt ID': row['Etsy receipt ID'],
    'Printify order ID': row['Printify order IDs'].split('; ')[0],
    Status: row.Status,
    'Match method': row['Match method'],
    'Display currency': row['Display currency'],
    Revenue: row.Revenue,
    'Total costs': row['Total costs'],
    Profit: row.Profit,
    'Margin %': row['Margin %'],
    Figures: row.Figures,
    'Estimated fees': row['Estimated fees'],
  };
}

describe('GET /api/orders/export', () => {
  it('is a CSV download with a BOM and the header row', async () => {
    const response = await get('/api/orders/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="podprofit-orders-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const [header] = response.body.replace(/^\ufeff/, '').split(/\r?\n/);
    expect(header.split(',')).toEqual(
      expect.arrayContaining([
        'Order date',
        'Etsy receipt ID',
        'Printify order IDs',
        'Products',
        'SKUs',
        'Quantities',
        'Status',
        'Match method',
        'Revenue (Etsy currency)',
        'Revenue',
        'Transaction fee',
        'Payment processing fee',
        'Printify cost',
        'Profit',
        'Margin %',
        'Exchange rate',
        'ECB rate date',
        'Estimated fees',
      ]),
    );
  });

  it.each([
    ['no filters', ''],
    ['EUR', '?currency=EUR'],
    ['GBP, unmatched', '?currency=GBP&status=unmatched'],
    ['last 30 days', '?days=30'],
    ['the Printify tab', '?source=printify'],
    ['the Etsy tab, a search', '?source=etsy&search=ox70'],
    ['a trigram search', '?search=Tee'],
    ['by profit, lowest first', '?sort=profit&dir=asc'],
    ['by margin, highest first', '?sort=margin&dir=desc&currency=EUR'],
    ['by revenue, lowest first', '?sort=revenue&dir=asc'],
    ['oldest first', '?sort=date&dir=asc'],
  ])('holds the list’s rows and figures, in its order: %s', async (_name, query) => {
    const currency = new URLSearchParams(query).get('currency') ?? 'USD';
    const [file, list] = await Promise.all([exportRows(query), listRows(query)]);
    expect(list.length).toBeGreaterThan(0);
    expect(file.map(fileRow)).toEqual(list.map((row) => expectedRow(row, currency)));
  });

  it('shows money as plain decimals in the display currency, fees by kind adding up to the costs', async () => {
    const rows = await exportRows('?currency=EUR');
    const golden = rows.find((row) => row.Status === 'matched' && row['Etsy currency'] === 'USD');
    expect(golden).toBeDefined();
    const cents = (text: string) => (text === '' ? 0 : Math.round(Number(text) * 100));
    const feeColumns = [
      'Transaction fee',
      'Payment processing fee',
      'Listing fee',
      'Offsite Ads fee',
      'Regulatory operating fee',
      'Currency conversion fee',
      'VAT on fees',
      'Other Etsy charges',
    ];
    const parts = [...feeColumns, 'Printify cost'].reduce((sum, column) => sum + cents(golden![column]), 0);
    expect(parts).toBe(cents(golden!['Total costs']));
    expect(cents(golden!.Revenue) - cents(golden!['Total costs'])).toBe(cents(golden!.Profit));
    expect(golden!['Exchange rate currencies']).toContain('USD>EUR');
    expect(golden!['ECB rate date']).toMatch(/^\d{4}-\d{2}-\d{2}/);
    for (const row of rows)
      for (const column of ['Revenue', 'Total costs', 'Profit', ...feeColumns])
        expect(row[column]).toMatch(/^(-?\d+\.\d{2})?$/);
  });

  it('escapes text a spreadsheet would run as a formula, and keeps quotes and line breaks', async () => {
    const [row] = (await exportRows('?search=ox8001')).filter((r) => r['Etsy receipt ID'] === 'ox8001');
    expect(row.Products).toBe(`'=HYPERLINK("http://evil.example","click"); @SUM(A1)\n"quoted"`);
    expect(row.SKUs).toBe(`'+1; -2`);
    expect(row.Quantities).toBe('1; 2');
  });

  it('applies the archived view', async () => {
    const [first] = await listRows('');
    const id = (await get('/api/orders?pageSize=1')).json().orders[0].id as string;
    const archived = await gw.app.inject({
      method: 'POST',
      url: `/api/orders/${id}/archive`,
      headers: { ...SAME_ORIGIN, cookie: seller.cookie },
    });
    expect(archived.statusCode).toBe(200);
    const file = await exportRows('?view=archived');
    expect(file.map((row) => row['Etsy receipt ID'] || row['Printify order IDs'])).toEqual([
      first.etsyReceiptId ?? first.printifyOrderId,
    ]);
    expect((await exportRows('')).some((row) => row['Etsy receipt ID'] === first.etsyReceiptId)).toBe(false);
  });

  it('never holds another user’s orders', async () => {
    const mine = await exportRows('');
    const theirs = await exportRows('', other.cookie);
    expect(theirs.length).toBeGreaterThan(0);
    const ids = (rows: CsvRow[]) => rows.flatMap((row) => [row['Etsy receipt ID'], row['Printify order IDs']]);
    expect(ids(mine).every((id) => !id.startsWith('oy'))).toBe(true);
    expect(
      ids(theirs)
        .filter(Boolean)
        .every((id) => id.startsWith('oy')),
    ).toBe(true);
  });

  it.each([
    ['status=shipped', 'status'],
    ['days=5', 'days'],
    ['sort=name', 'sort'],
    ['currency=JPY', 'currency'],
    ['page=2', 'page'],
  ])('refuses a bad filter (%s) with a clear 400', async (query, field) => {
    const response = await get(`/api/orders/export?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_failed', field });
  });

  it('asks for a session', async () => {
    expect((await gw.app.inject({ method: 'GET', url: '/api/orders/export' })).statusCode).toBe(401);
  });
});

/** A real HTTP export that reads its first bytes and then stops reading (the cursor stays open). */
function startExport(cookie: string): Promise<{ response: IncomingMessage; destroy: () => void }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/orders/export', headers: { cookie } }, (response) => {
      response.once('data', () => {
        response.pause();
        resolve({ response, destroy: () => req.destroy() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The export statements PostgreSQL still holds (active, or a cursor waiting in its transaction). */
const exportBackends = () =>
  queryDatabase<{ pid: number }>(
    bed.database.url,
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '/* orders export */%'`,
  );

async function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('one export at a time, and a client that leaves', () => {
  it('answers a second export of the same user 429 (Retry-After) while the first runs; another user exports meanwhile', async () => {
    const first = await startExport(bulky.cookie);
    try {
      expect(first.response.statusCode).toBe(200);
      const second = await get('/api/orders/export', bulky.cookie);
      expect(second.statusCode).toBe(429);
      expect(second.headers['retry-after']).toBe('5');
      expect(second.json()).toMatchObject({
        code: 'export_in_progress',
        message: expect.stringMatching(/already running/),
      });
      expect((await get('/api/orders/export', other.cookie)).statusCode).toBe(200);
    } finally {
      first.destroy();
    }
  }, 60_000);

  it('stops the query and frees the connection and the lock when the client leaves', async () => {
    // The test before left an export too: its backend goes within the same 5 s (under load, not
    // always within the 2 s this test gives its own to show up).
    expect(await eventually(async () => (await exportBackends()).length === 0, 5_000)).toBe(true);
    const first = await startExport(bulky.cookie);
    try {
      expect(await eventually(async () => (await exportBackends()).length === 1, 2_000)).toBe(true);
    } finally {
      first.destroy();
    }
    expect(await eventually(async () => (await exportBackends()).length === 0, 5_000)).toBe(true);
    // The lock went with it: the next export runs to its end.
    const rows = await exportRows('', bulky.cookie);
    expect(rows).toHaveLength(BULK_ORDERS);
    expect(await exportBackends()).toEqual([]);
  }, 60_000);
});
