import { newSandbox } from '../../test/support/kit';
import { easterSunday, isoDate, isTargetDay, dayNumberOf, latestPublishedDay } from './calendar';

describe('ECB reference-rate files', () => {
  it('knows the TARGET holidays', () => {
    expect(isoDate(easterSunday(2025))).toBe('2025-04-20');
    expect(isoDate(easterSunday(2026))).toBe('2026-04-05');
    for (const day of [
      '2025-04-18',
      '2025-04-21',
      '2025-05-01',
      '2025-12-25',
      '2025-12-26',
      '2026-01-01',
      '2026-01-03',
      '2026-01-04',
    ])
      expect(isTargetDay(dayNumberOf(day))).toBe(false);
    expect(isTargetDay(dayNumberOf('2026-01-02'))).toBe(true);
    // Before 15:00 UTC the latest file is the previous TARGET day.
    expect(isoDate(latestPublishedDay(Date.UTC(2026, 0, 5, 10)))).toBe('2026-01-02');
    expect(isoDate(latestPublishedDay(Date.UTC(2026, 0, 5, 16)))).toBe('2026-01-05');
  });

  it('serves the daily, 90-day and full files in the documented XML shapes', async () => {
    const { app } = await newSandbox({ now: () => Date.UTC(2026, 3, 7, 17) }); // Tuesday after Easter Monday 2026
    try {
      const daily = await app.inject({ url: '/stats/eurofxref/eurofxref-daily.xml' });
      expect(daily.headers['content-type']).toContain('text/xml');
      expect(daily.body).toContain(
        '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
      );
      expect(daily.body).toContain('<gesmes:subject>Reference rates</gesmes:subject>');
      expect(daily.body).toContain('<gesmes:name>European Central Bank</gesmes:name>');
      expect(daily.body).toContain("<Cube time='2026-04-07'>");
      const currencies = [...daily.body.matchAll(/currency='([A-Z]{3})' rate='(\d+\.\d+)'/g)];
      expect(currencies.map((m) => m[1])).toHaveLength(29);
      expect(currencies.map((m) => m[1])).not.toContain('BGN');
      expect(currencies.find((m) => m[1] === 'GBP')?.[2]).toMatch(/^\d\.\d{5}$/);

      const ninety = (await app.inject({ url: '/stats/eurofxref/eurofxref-hist-90d.xml' })).body;
      const days = [...ninety.matchAll(/<Cube time="(\d{4}-\d\d-\d\d)">/g)].map((m) => m[1]);
      expect(days[0]).toBe('2026-04-07');
      expect(days).toEqual([...days].sort().reverse());
      for (const absent of ['2026-04-03', '2026-04-06', '2026-04-04', '2026-04-05']) expect(days).not.toContain(absent);
      expect(days.length).toBeGreaterThan(55);
      expect(days.length).toBeLessThan(66);
      expect(ninety).not.toMatch(/rate="\d+\.\d*0"/);

      const hist = (await app.inject({ url: '/ecb/stats/eurofxref/eurofxref-hist.xml' })).body;
      expect(hist).toContain('<Cube time="1999-01-04">');
      expect(hist).not.toContain('<Cube time="2025-05-01">');
      expect(hist).toMatch(/<Cube time="2025-12-31">[^\n]*currency="BGN" rate="1.9558"/);
      // The same day has the same rates in every file.
      const usdDaily = /currency='USD' rate='([\d.]+)'/.exec(daily.body)?.[1];
      const usdHist = /<Cube time="2026-04-07"><Cube currency="USD" rate="([\d.]+)"/.exec(hist)?.[1];
      expect(Number(usdHist)).toBe(Number(usdDaily));
    } finally {
      await app.close();
    }
  });
});
