import { inflateRawSync } from 'node:zlib';
import { newSandbox } from '../../test/support/kit';
import { dayNumberOf } from './calendar';
import { RateHistory } from './rates';

/**
 * Typical ECB reference rates (units per EUR) around the turn of 2025/2026, written by hand:
 * the sandbox's random walk must keep every currency near its own magnitude on both sides of
 * 2026-01-02, when BGN left the list (a value read from the wrong column lands far away).
 */
const TYPICAL: Record<string, number> = {
  USD: 1.16,
  JPY: 180,
  BGN: 1.9558,
  CZK: 24.3,
  DKK: 7.469,
  GBP: 0.87,
  HUF: 385,
  PLN: 4.22,
  RON: 5.09,
  SEK: 10.8,
  CHF: 0.93,
  ISK: 148,
  NOK: 11.8,
  TRY: 49,
  AUD: 1.76,
  BRL: 6.3,
  CAD: 1.62,
  CNY: 8.2,
  HKD: 9.05,
  IDR: 19500,
  ILS: 3.75,
  INR: 104,
  KRW: 1700,
  MXN: 21,
  MYR: 4.8,
  NZD: 2.03,
  PHP: 68,
  SGD: 1.51,
  THB: 37,
  ZAR: 19.8,
};
// Pegged or nearly so: DKK moves within ±2.25% of 7.46038 (ERM II), BGN was fixed.
const TIGHT = new Set(['DKK', 'BGN']);

describe('sandbox ECB rates', () => {
  it('keeps every currency at its own magnitude before and after BGN leaves (2026-01-02)', () => {
    const history = new RateHistory('demo');
    for (const date of [
      '2025-10-01',
      '2025-12-30',
      '2025-12-31',
      '2026-01-02',
      '2026-01-05',
      '2026-02-16',
      '2026-03-13',
    ]) {
      const [day] = history.history(dayNumberOf(date), dayNumberOf(date));
      const codes = day.rates.map(([code]) => code);
      expect(codes.includes('BGN')).toBe(date < '2026');
      expect(codes).toHaveLength(date < '2026' ? 30 : 29);
      for (const [code, value] of day.rates) {
        const typical = TYPICAL[code];
        const tolerance = TIGHT.has(code) ? 0.01 : 0.25;
        expect({ date, code, ok: Math.abs(value / typical - 1) <= tolerance, value }).toEqual({
          date,
          code,
          ok: true,
          value,
        });
      }
    }
  });
});

/** Reads the one file of a ZIP from its local header (written here, apart from the product's reader). */
function unzipOne(zip: Buffer): { name: string; text: string } {
  expect(zip.readUInt32LE(0)).toBe(0x04034b50);
  expect(zip.readUInt16LE(8)).toBe(8); // deflate
  const compressed = zip.readUInt32LE(18);
  const size = zip.readUInt32LE(22);
  const nameLength = zip.readUInt16LE(26);
  const extraLength = zip.readUInt16LE(28);
  const name = zip.subarray(30, 30 + nameLength).toString('utf8');
  const start = 30 + nameLength + extraLength;
  const text = inflateRawSync(zip.subarray(start, start + compressed)).toString('utf8');
  expect(Buffer.byteLength(text)).toBe(size);
  expect(zip.readUInt32LE(zip.length - 22)).toBe(0x06054b50); // the end record closes the archive
  return { name, text };
}

describe('sandbox ECB zipped CSV files', () => {
  it('serves eurofxref.zip: eurofxref.csv with "Date, USD, …," and one row dated "07 April 2026"', async () => {
    const { app } = await newSandbox({ now: () => Date.UTC(2026, 3, 7, 17) });
    try {
      const response = await app.inject({ url: '/stats/eurofxref/eurofxref.zip' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('application/zip');
      const { name, text } = unzipOne(response.rawPayload);
      expect(name).toBe('eurofxref.csv');
      const [header, row, ...rest] = text.split('\n');
      expect(rest).toEqual(['']);
      expect(header).toMatch(/^Date, USD, JPY, CZK, DKK, GBP, (?:[A-Z]{3}, )*ZAR,$/);
      expect(header.split(', ')).toHaveLength(30); // Date + 29 currencies; the last cell is "ZAR,"
      expect(row).toMatch(/^07 April 2026, (?:\d+\.\d+, )*\d+\.\d+,$/);
      const daily = (await app.inject({ url: '/stats/eurofxref/eurofxref-daily.xml' })).body;
      const gbpXml = /currency='GBP' rate='([\d.]+)'/.exec(daily)?.[1];
      const cells = row.replace(/,$/, '').split(', ');
      expect(cells[header.replace(/,$/, '').split(', ').indexOf('GBP')]).toBe(gbpXml);
    } finally {
      await app.close();
    }
  });

  it('serves eurofxref-hist.zip: ISO dates newest first from 1999-01-04, N/A where not quoted, the same values as the XML', async () => {
    const { app } = await newSandbox({ now: () => Date.UTC(2026, 3, 7, 17) });
    try {
      const response = await app.inject({ url: '/ecb/stats/eurofxref/eurofxref-hist.zip' });
      expect(response.statusCode).toBe(200);
      const { name, text } = unzipOne(response.rawPayload);
      expect(name).toBe('eurofxref-hist.csv');
      const lines = text.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^Date,USD,JPY,BGN,CYP,.*,ZAR,$/);
      const columns = lines[0].split(',').slice(0, -1);
      const rows = lines.slice(1).map((line) => line.split(','));
      expect(rows[0][0]).toBe('2026-04-07');
      expect(rows.at(-1)?.[0]).toBe('1999-01-04');
      const dates = rows.map((cells) => cells[0]);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(dates).not.toContain('2025-05-01');
      for (const cells of rows.slice(0, 200)) {
        expect(cells).toHaveLength(columns.length + 1); // the trailing comma
        expect(cells.at(-1)).toBe('');
        for (const cell of cells.slice(1, -1)) expect(cell).toMatch(/^(?:\d+(?:\.\d+)?|N\/A)$/);
      }
      const bgn = columns.indexOf('BGN');
      expect(rows.find((cells) => cells[0] === '2026-01-02')?.[bgn]).toBe('N/A');
      expect(rows.find((cells) => cells[0] === '2025-12-31')?.[bgn]).toBe('1.9558');
      const hist = (await app.inject({ url: '/stats/eurofxref/eurofxref-hist.xml' })).body;
      const gbpXml = /<Cube time="2026-01-05">.*?currency="GBP" rate="([\d.]+)"/.exec(hist)?.[1];
      expect(rows.find((cells) => cells[0] === '2026-01-05')?.[columns.indexOf('GBP')]).toBe(gbpXml);
    } finally {
      await app.close();
    }
  });
});
