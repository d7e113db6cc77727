import type { DataSource } from 'typeorm';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { FxRatesRepository } from './fx-rates.repository';

let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('fxrates');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'fx-rates').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('FxRatesRepository', () => {
  it('stores decimals exactly, writes only what is new or different, and reads them back as text', async () => {
    const repo = new FxRatesRepository(dataSource);
    expect(await repo.latestDate()).toBeNull();
    const rows = [
      { date: '2026-03-13', currency: 'USD', perEur: '1.1476' },
      { date: '2026-03-13', currency: 'GBP', perEur: '0.86503' },
      { date: '2026-03-13', currency: 'IDR', perEur: '19530.5' },
      { date: '2026-03-12', currency: 'USD', perEur: '1.1502' },
      { date: '1999-01-04', currency: 'CYP', perEur: '0.58231' },
      { date: '2026-03-13', currency: 'XYZ', perEur: '123456789.123456789012' },
    ];
    expect(await repo.upsertRates(rows, 'eurofxref-hist-90d.xml', new Date('2026-03-13T16:00:00Z'))).toEqual({
      inserted: 6,
      changed: 0,
      unchanged: 0,
    });
    expect(await repo.upsertRates(rows, 'eurofxref-daily.xml', new Date('2026-03-14T16:00:00Z'))).toEqual({
      inserted: 0,
      changed: 0,
      unchanged: 6,
    });
    const corrected = [{ date: '2026-03-13', currency: 'USD', perEur: '1.1477' }];
    expect(await repo.upsertRates(corrected, 'eurofxref-daily.xml', new Date('2026-03-14T16:00:00Z'))).toEqual({
      inserted: 0,
      changed: 1,
      unchanged: 0,
    });
    expect(await repo.latestDate()).toBe('2026-03-13');
    expect(await repo.count()).toBe(6);
    expect(await repo.ratesBetween('2026-03-12', '2026-03-13', ['USD', 'IDR', 'XYZ'])).toEqual([
      { date: '2026-03-12', currency: 'USD', perEur: '1.1502' },
      { date: '2026-03-13', currency: 'IDR', perEur: '19530.5' },
      { date: '2026-03-13', currency: 'USD', perEur: '1.1477' },
      { date: '2026-03-13', currency: 'XYZ', perEur: '123456789.123456789012' },
    ]);
    expect(await repo.ratesBetween('1999-01-01', '1999-12-31')).toEqual([
      { date: '1999-01-04', currency: 'CYP', perEur: '0.58231' },
    ]);
    const stored = await queryDatabase<{ source: string }>(
      database.url,
      `SELECT source FROM fx_rate WHERE rate_date = '2026-03-13' AND currency = 'GBP'`,
    );
    expect(stored).toEqual([{ source: 'eurofxref-hist-90d.xml' }]);
  });

  it('upserts large loads in chunks (a full history is ~200k rows)', async () => {
    const repo = new FxRatesRepository(dataSource);
    const rows = Array.from({ length: 12_000 }, (_, i) => ({
      date: new Date(Date.UTC(2000, 0, 3) + Math.floor(i / 4) * 86_400_000).toISOString().slice(0, 10),
      currency: ['AAA', 'BBB', 'CCC', 'DDD'][i % 4],
      perEur: `${1 + (i % 97)}.${i % 10}5`,
    }));
    expect(await repo.upsertRates(rows, 'test', new Date())).toEqual({ inserted: 12_000, changed: 0, unchanged: 0 });
    expect(await repo.upsertRates(rows, 'test', new Date())).toEqual({ inserted: 0, changed: 0, unchanged: 12_000 });
  });

  it('refuses a rate that is not positive or a code that is not three capitals', async () => {
    const repo = new FxRatesRepository(dataSource);
    await expect(
      repo.upsertRates([{ date: '2026-03-13', currency: 'usd', perEur: '1.1' }], 'test', new Date()),
    ).rejects.toThrow();
    await expect(
      repo.upsertRates([{ date: '2026-03-13', currency: 'EEE', perEur: '0' }], 'test', new Date()),
    ).rejects.toThrow();
  });
});
