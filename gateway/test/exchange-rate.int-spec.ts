import { queryDatabase } from '@pod/testing';
import { GatewayTestBed, register, sessionCookie, uniqueEmail, type TestGateway } from './support/test-gateway';

/**
 * GET /api/exchange-rate/:date/:from/:to over the fx_rate table: ECB cross rates for signed-in
 * users, the last ECB day on or before the date (a weekend answers Friday's rate and date),
 * 400 for a bad date or currency, 404 `rate_unavailable` when there is no rate.
 */
const bed = new GatewayTestBed();
let gw: TestGateway;
let cookie: string;

beforeAll(async () => {
  await bed.setUp();
  gw = await bed.start();
  cookie = sessionCookie(await register(gw.app, uniqueEmail('fx')));
  // Real ECB rates of Thursday 12 and Friday 13 March 2026 (integrations.md §c.3).
  await queryDatabase(
    bed.database.url,
    `INSERT INTO fx_rate (rate_date, currency, per_eur, source) VALUES
       ('2026-03-12', 'USD', '1.1502', 'test'), ('2026-03-12', 'GBP', '0.8651', 'test'),
       ('2026-03-13', 'USD', '1.1476', 'test'), ('2026-03-13', 'GBP', '0.86503', 'test'), ('2026-03-13', 'JPY', '171.5', 'test')`,
  );
}, 60_000);
afterAll(async () => {
  await bed.tearDown();
});

const get = (path: string, headers: Record<string, string> = { cookie }) =>
  gw.app.inject({ method: 'GET', url: `/api/exchange-rate/${path}`, headers });

describe('GET /api/exchange-rate/:date/:from/:to', () => {
  it('answers the ECB cross rate of the date as a decimal string with the ECB day used', async () => {
    const response = await get('2026-03-13/USD/GBP');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ rate: '0.7537730917', date: '2026-03-13' });
    expect((await get('2026-03-12/EUR/USD')).json()).toEqual({ rate: '1.1502', date: '2026-03-12' });
    expect((await get('2026-03-13/gbp/jpy')).json()).toEqual({ rate: '198.2590199', date: '2026-03-13' });
  });

  it("uses Friday's rate on a weekend and says so", async () => {
    expect((await get('2026-03-14/USD/GBP')).json()).toEqual({ rate: '0.7537730917', date: '2026-03-13' });
    expect((await get('2026-03-15/USD/EUR')).json()).toEqual({ rate: '0.8713837574', date: '2026-03-13' });
  });

  it('answers 1 for the same currency, at the date asked', async () => {
    expect((await get('2026-03-15/USD/USD')).json()).toEqual({ rate: '1', date: '2026-03-15' });
  });

  it('refuses a bad date or currency with 400 and the field', async () => {
    for (const [path, field] of [
      ['2026-02-30/USD/GBP', 'date'],
      ['yesterday/USD/GBP', 'date'],
      ['2026-3-13/USD/GBP', 'date'],
      ['2026-03-13/ABC/GBP', 'from'],
      ['2026-03-13/USD/XAU', 'to'],
      ['2026-03-13/USD/US', 'to'],
    ]) {
      const response = await get(path);
      expect({ path, status: response.statusCode }).toEqual({ path, status: 400 });
      expect(response.json()).toMatchObject({ code: 'validation_failed', field, message: expect.any(String) });
    }
  });

  it('refuses dates outside the supported years (1999-01-01 to 2099-12-31) with 400, not a 500 from PostgreSQL', async () => {
    for (const date of ['0000-01-01', '0001-01-01', '1998-12-31', '2100-01-01', '9999-12-31']) {
      const response = await get(`${date}/USD/EUR`);
      expect({ date, status: response.statusCode }).toEqual({ date, status: 400 });
      expect(response.json()).toMatchObject({
        code: 'validation_failed',
        field: 'date',
        message: 'The date must be a calendar date from 1999-01-01 to 2099-12-31, written YYYY-MM-DD.',
      });
    }
    expect((await get('1999-01-01/USD/EUR')).json()).toMatchObject({ statusCode: 404, code: 'rate_unavailable' });
    expect((await get('2099-12-31/USD/EUR')).json()).toMatchObject({ statusCode: 404, code: 'rate_unavailable' });
  });

  it('answers 404 rate_unavailable when there is no rate: a currency the ECB does not publish, a date before the table, rates not loaded yet', async () => {
    const mad = await get('2026-03-13/MAD/USD');
    expect(mad.statusCode).toBe(404);
    expect(mad.json()).toMatchObject({ code: 'rate_unavailable', message: expect.stringContaining('MAD') });
    expect((await get('2026-02-01/USD/GBP')).json()).toMatchObject({ statusCode: 404, code: 'rate_unavailable' });
    // Monday 16 March's rates are not in the table: not the Friday rate in disguise.
    const monday = await get('2026-03-16/USD/GBP');
    expect(monday.json()).toMatchObject({
      statusCode: 404,
      code: 'rate_unavailable',
      message: expect.stringContaining('Try again later'),
    });
  });

  it('is for signed-in users only', async () => {
    expect((await get('2026-03-13/USD/GBP', {})).json()).toMatchObject({ statusCode: 401, code: 'unauthenticated' });
  });
});
