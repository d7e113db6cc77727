import type { FastifyInstance } from 'fastify';
import {
  EcbClient,
  MalformedResponseError,
  RedirectRefusedError,
  TransportError,
  type EcbRateDay,
} from '@pod/integrations';
import { createSandboxApp } from '../sandbox/src/app';

/**
 * The real ECB client against the sandbox's ECB files, served over HTTP: the five files agree
 * with each other (the zipped CSVs carry the same values as the XML), and the fault knobs come
 * back as the client's retries and typed errors.
 */
const ADMIN = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };
let sandbox: FastifyInstance;
let url: string;
let client: EcbClient;

beforeAll(async () => {
  sandbox = createSandboxApp({ port: 0, seed: 'ecb-client', defaultTenant: false, adminToken: 'sandbox-admin' });
  url = await sandbox.listen({ host: '127.0.0.1', port: 0 });
  client = new EcbClient({ ratesUrl: `${url}/stats/eurofxref`, retry: { baseDelayMs: 10, maxDelayMs: 50 } });
});
afterAll(async () => {
  await sandbox?.close();
});

const byDate = (days: EcbRateDay[]) => new Map(days.map((day) => [day.date, day.rates]));
const fault = (body: object) =>
  fetch(`${url}/__sandbox/faults`, { method: 'POST', headers: ADMIN, body: JSON.stringify(body) }).then((r) =>
    expect(r.status).toBe(201),
  );

describe('EcbClient against the sandbox', () => {
  it('reads all five files, which agree with one another', async () => {
    const [daily, dailyZip, ninety, history, historyZip] = await Promise.all(
      (['daily', 'dailyZip', 'last90Days', 'history', 'historyZip'] as const).map((file) => client.fetchRates(file)),
    );
    expect(daily).toHaveLength(1);
    expect(dailyZip).toEqual(daily);
    expect(ninety[0]).toEqual(daily[0]);
    expect(historyZip.map((d) => d.date)).toEqual(history.map((d) => d.date));
    expect(history.at(-1)?.date).toBe('1999-01-04');
    const hist = byDate(history);
    for (const day of [...ninety, ...historyZip.slice(0, 500)]) expect(hist.get(day.date)).toEqual(day.rates);
    expect(hist.get('2025-12-31')?.find((r) => r.currency === 'BGN')?.perEur).toBe('1.9558');
    expect(hist.get('2026-01-02')?.some((r) => r.currency === 'BGN')).toBe(false);
  });

  it('retries a 503 with Retry-After and a cut body, refuses a redirect, and calls a garbled file malformed', async () => {
    await fault({
      target: 'ecb',
      kind: '5xx',
      status: 503,
      retryAfterSeconds: 0,
      count: 2,
      match: { pathPrefix: '/stats/eurofxref/eurofxref-daily.xml' },
    });
    expect(await client.fetchRates('daily')).toHaveLength(1);
    await fault({
      target: 'ecb',
      kind: 'redirect',
      location: 'https://elsewhere.example/',
      match: { pathPrefix: '/stats/eurofxref/eurofxref-daily.xml' },
    });
    await expect(client.fetchRates('daily')).rejects.toBeInstanceOf(RedirectRefusedError);
    await fault({
      target: 'ecb',
      kind: 'truncated-body',
      count: 1,
      match: { pathPrefix: '/stats/eurofxref/eurofxref-hist-90d.xml' },
    });
    expect((await client.fetchRates('last90Days')).length).toBeGreaterThan(55);
    await fault({
      target: 'ecb',
      kind: 'truncated-body',
      count: 10,
      match: { pathPrefix: '/stats/eurofxref/eurofxref-hist-90d.xml' },
    });
    await expect(client.fetchRates('last90Days')).rejects.toBeInstanceOf(TransportError);
    await fault({ target: 'ecb', kind: 'malformed-json', match: { pathPrefix: '/stats/eurofxref/eurofxref.zip' } });
    await expect(client.fetchRates('dailyZip')).rejects.toBeInstanceOf(MalformedResponseError);
  });
});
