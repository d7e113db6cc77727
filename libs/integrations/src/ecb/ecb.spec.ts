import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { fakeFetch, text } from '../../test/support/fake-fetch';
import { MalformedResponseError, RedirectRefusedError, UpstreamError } from '../http/errors';
import { EcbClient } from './client';
import { parseEcbCsv, parseEcbXml, toFxRateRows } from './parse';
import { readZipEntry, ZipFormatError } from './zip';

const fixture = (name: string) => readFileSync(join(__dirname, '../../test-fixtures/ecb', name), 'utf8');
const noWait = { now: () => Date.now(), sleep: async () => undefined };

/** A one-entry ZIP written here (local header, data, central directory, end record), with knobs to break it. */
function zip(name: string, content: Buffer, lie: { size?: number; crc?: number; offset?: number } = {}): Buffer {
  const data = deflateRawSync(content);
  const n = Buffer.from(name);
  const header = (signature: number, length: number) => {
    const b = Buffer.alloc(length);
    b.writeUInt32LE(signature, 0);
    return b;
  };
  const local = header(0x04034b50, 30);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(lie.crc ?? crc32(content), 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(lie.size ?? content.length, 22);
  local.writeUInt16LE(n.length, 26);
  const central = header(0x02014b50, 46);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(lie.crc ?? crc32(content), 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(lie.size ?? content.length, 24);
  central.writeUInt16LE(n.length, 28);
  central.writeUInt32LE(lie.offset ?? 0, 42);
  const end = header(0x06054b50, 22);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + n.length, 12);
  end.writeUInt32LE(30 + n.length + data.length, 16);
  return Buffer.concat([local, n, data, central, n, end]);
}

describe('ECB XML files', () => {
  it('reads the daily file: single quotes, trailing zeros made canonical, the namespaces checked', () => {
    expect(parseEcbXml(fixture('eurofxref-daily.xml'))).toEqual([
      {
        date: '2022-07-08',
        rates: [
          { currency: 'USD', perEur: '1.0163' },
          { currency: 'JPY', perEur: '138.05' },
          { currency: 'BGN', perEur: '1.9558' },
          { currency: 'GBP', perEur: '0.84755' },
          { currency: 'PLN', perEur: '4.763' },
          { currency: 'ISK', perEur: '139.1' },
        ],
      },
    ]);
  });

  it('reads the 90-day file newest first and maps it to fx rows', () => {
    const days = parseEcbXml(fixture('eurofxref-hist-90d.xml'));
    expect(days.map((d) => d.date)).toEqual(['2026-03-13', '2026-03-12']);
    expect(toFxRateRows(days)).toContainEqual({ date: '2026-03-13', currency: 'GBP', perEur: '0.86503' });
    expect(toFxRateRows(days)).toContainEqual({ date: '2026-03-12', currency: 'RON', perEur: '5.3075' });
    expect(toFxRateRows(days)).toHaveLength(8);
  });

  it.each([
    ['not XML', 'rates: 1.1'],
    ['a DOCTYPE (no entity expansion)', '<!DOCTYPE x [<!ENTITY a "b">]><x/>'],
    [
      'mismatched tags',
      '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01"><Cube></gesmes:Envelope>',
    ],
    ['the wrong root', '<Envelope><Cube/></Envelope>'],
    ['a rate that is not a decimal', fixture('eurofxref-daily.xml').replace("'1.0163'", "'1,0163'")],
    ['a negative rate', fixture('eurofxref-daily.xml').replace("'1.0163'", "'-1.0163'")],
    ['a bad date', fixture('eurofxref-daily.xml').replace('2022-07-08', '2022-02-30')],
    ['a bad currency', fixture('eurofxref-daily.xml').replace("'USD'", "'usd'")],
    ['an undeclared prefix', '<x:y/>'],
    ['a second root', '<a/><b/>'],
    ['deep nesting', '<a>'.repeat(100) + '</a>'.repeat(100)],
  ])('refuses %s as malformed', (_what, body) => {
    expect(() => parseEcbXml(body)).toThrow(MalformedResponseError);
  });
});

describe('ECB CSV files', () => {
  it('reads the daily CSV ("Date, USD, …," and a "08 July 2022" row)', () => {
    expect(parseEcbCsv(fixture('eurofxref.csv'))).toEqual([
      {
        date: '2022-07-08',
        rates: [
          { currency: 'USD', perEur: '1.0163' },
          { currency: 'JPY', perEur: '138.05' },
          { currency: 'BGN', perEur: '1.9558' },
          { currency: 'GBP', perEur: '0.84755' },
          { currency: 'PLN', perEur: '4.763' },
          { currency: 'ISK', perEur: '139.1' },
        ],
      },
    ]);
  });

  it('reads the history CSV, leaving N/A out (never a number)', () => {
    const days = parseEcbCsv(fixture('eurofxref-hist.csv'));
    expect(days.map((d) => d.date)).toEqual(['2026-01-02', '2025-12-31', '1999-01-04']);
    expect(days[0].rates.map((r) => r.currency)).toEqual(['USD', 'JPY', 'GBP', 'ZAR']);
    expect(days[2].rates).toContainEqual({ currency: 'CYP', perEur: '0.58231' });
    expect(days[1].rates).toContainEqual({ currency: 'BGN', perEur: '1.9558' });
  });

  it.each([
    ['an empty file', ''],
    ['a header without Date', 'USD,JPY,\n'],
    ['a short row', 'Date,USD,JPY,\n2026-01-02,1.1,\n'],
    ['a bad date', 'Date,USD,\n2026-13-02,1.1,\n'],
    ['a bad month name', 'Date, USD,\n08 Julio 2022, 1.1,\n'],
    ['a bad value', 'Date,USD,\n2026-01-02,abc,\n'],
    ['a day twice', 'Date,USD,\n2026-01-02,1.1,\n2026-01-02,1.2,\n'],
  ])('refuses %s', (_what, body) => {
    expect(() => parseEcbCsv(body)).toThrow(MalformedResponseError);
  });
});

describe('ZIP reader', () => {
  const csv = Buffer.from(fixture('eurofxref-hist.csv'));

  it('reads the named entry and checks its size and CRC', () => {
    expect(
      readZipEntry(zip('eurofxref-hist.csv', csv), (n) => n === 'eurofxref-hist.csv', 1_000_000).content.equals(csv),
    ).toBe(true);
  });

  it.each([
    ['a wrong CRC', zip('eurofxref-hist.csv', csv, { crc: 1234 }), 1_000_000],
    ['a lying size', zip('eurofxref-hist.csv', csv, { size: csv.length - 1 }), 1_000_000],
    ['a declared size over the cap', zip('eurofxref-hist.csv', csv), 100],
    ['a local header offset outside the archive', zip('eurofxref-hist.csv', csv, { offset: 10_000_000 }), 1_000_000],
    ['a missing entry', zip('other.csv', csv), 1_000_000],
    ['no archive at all', Buffer.from('PK not really'), 1_000_000],
    ['a truncated archive', zip('eurofxref-hist.csv', csv).subarray(0, 60), 1_000_000],
  ])('refuses %s', (_what, archive, cap) => {
    expect(() => readZipEntry(archive, (n) => n === 'eurofxref-hist.csv', cap)).toThrow(ZipFormatError);
  });

  it('stops inflating at the cap even when the declared size lies (a zip bomb)', () => {
    const bomb = Buffer.alloc(5_000_000, 0x41);
    expect(() => readZipEntry(zip('eurofxref-hist.csv', bomb, { size: 100 }), () => true, 1_000)).toThrow(
      ZipFormatError,
    );
  });
});

describe('EcbClient', () => {
  it('fetches each file from the configured folder and parses it', async () => {
    const fetch = fakeFetch(
      text(200, fixture('eurofxref-daily.xml')),
      () =>
        new Response(zip('eurofxref-hist.csv', Buffer.from(fixture('eurofxref-hist.csv'))), {
          status: 200,
          headers: { 'content-type': 'application/zip' },
        }),
    );
    const client = new EcbClient({ ratesUrl: 'http://sandbox.test:5200/stats/eurofxref/' }, { fetch, clock: noWait });
    expect((await client.fetchRates('daily'))[0].date).toBe('2022-07-08');
    expect((await client.fetchRates('historyZip')).map((d) => d.date)).toEqual([
      '2026-01-02',
      '2025-12-31',
      '1999-01-04',
    ]);
    expect(fetch.calls.map((c) => c.url.href)).toEqual([
      'http://sandbox.test:5200/stats/eurofxref/eurofxref-daily.xml',
      'http://sandbox.test:5200/stats/eurofxref/eurofxref-hist.zip',
    ]);
    expect(fetch.calls[0].headers['user-agent']).toMatch(/PodProfit/);
    expect(fetch.calls[0].redirect).toBe('manual');
  });

  it('retries a 503 after its Retry-After, then gives a typed error; never follows a redirect', async () => {
    const sleeps: number[] = [];
    const clock = { now: () => Date.now(), sleep: async (ms: number) => void sleeps.push(ms) };
    const flaky = fakeFetch(text(503, 'busy', { 'retry-after': '2' }), text(200, fixture('eurofxref-hist-90d.xml')));
    expect(await new EcbClient({}, { fetch: flaky, clock }).fetchRates('last90Days')).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
    const down = fakeFetch(text(500, 'down'));
    await expect(
      new EcbClient({ retry: { maxAttempts: 2 } }, { fetch: down, clock: noWait }).fetchRates('daily'),
    ).rejects.toBeInstanceOf(UpstreamError);
    expect(down.calls).toHaveLength(2);
    const moved = fakeFetch(text(302, '', { location: 'https://elsewhere.example/' }));
    await expect(new EcbClient({}, { fetch: moved, clock: noWait }).fetchRates('daily')).rejects.toBeInstanceOf(
      RedirectRefusedError,
    );
  });

  it('turns a broken archive or a non-XML body into MalformedResponseError with provider ecb', async () => {
    const broken = fakeFetch(() => new Response(Buffer.from('<html>maintenance</html>'), { status: 200 }));
    await expect(new EcbClient({}, { fetch: broken, clock: noWait }).fetchRates('dailyZip')).rejects.toMatchObject({
      name: 'MalformedResponseError',
      provider: 'ecb',
    });
    await expect(new EcbClient({}, { fetch: broken, clock: noWait }).fetchRates('daily')).rejects.toMatchObject({
      name: 'MalformedResponseError',
      provider: 'ecb',
    });
  });
});
