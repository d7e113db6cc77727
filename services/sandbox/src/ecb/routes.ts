import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, pathOf } from '../core/http';
import type { SandboxState } from '../core/state';
import { isoDate, latestPublishedDay } from './calendar';
import { formatRate, ratesFor, type RateDay } from './rates';
import { zipOneFile } from './zip';

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>`;
const FOOTER = `\t</Cube>
</gesmes:Envelope>`;

export function dailyXml(day: RateDay): string {
  const cubes = day.rates
    .map(([code, value, decimals]) => `\t\t\t<Cube currency='${code}' rate='${formatRate(value, decimals, true)}'/>`)
    .join('\n');
  return `${HEADER}\n\t\t<Cube time='${isoDate(day.day)}'>\n${cubes}\n\t\t</Cube>\n${FOOTER}`;
}

export function historyXml(days: RateDay[]): string {
  const lines = days.map(
    (day) =>
      `<Cube time="${isoDate(day.day)}">${day.rates.map(([code, value, decimals]) => `<Cube currency="${code}" rate="${formatRate(value, decimals, false)}"/>`).join('')}</Cube>`,
  );
  return `${HEADER}\n${lines.join('\n')}\n${FOOTER}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `eurofxref.csv`: "Date, USD, …," then one row dated like "09 February 2018", a space after each comma, a trailing comma. */
export function dailyCsv(day: RateDay): string {
  const date = new Date(day.day * 86_400_000);
  const label = `${String(date.getUTCDate()).padStart(2, '0')} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  const header = ['Date', ...day.rates.map(([code]) => code)].map((cell) => `${cell}, `).join('');
  const row = [label, ...day.rates.map(([, value, decimals]) => formatRate(value, decimals, true))]
    .map((cell) => `${cell}, `)
    .join('');
  return `${header.trimEnd()}\n${row.trimEnd()}\n`;
}

/**
 * The history CSV's columns, in the ECB's order: the currencies of 1999 onwards, retired ones
 * included. The sandbox models only today's currencies (and BGN until 2025); the others are
 * `N/A` on every day, as the real file has them after they ended.
 */
export const HISTORY_CSV_COLUMNS = [
  'USD',
  'JPY',
  'BGN',
  'CYP',
  'CZK',
  'DKK',
  'EEK',
  'GBP',
  'HUF',
  'LTL',
  'LVL',
  'MTL',
  'PLN',
  'ROL',
  'RON',
  'SEK',
  'SIT',
  'SKK',
  'CHF',
  'ISK',
  'NOK',
  'HRK',
  'RUB',
  'TRL',
  'TRY',
  'AUD',
  'BRL',
  'CAD',
  'CNY',
  'HKD',
  'IDR',
  'ILS',
  'INR',
  'KRW',
  'MXN',
  'MYR',
  'NZD',
  'PHP',
  'SGD',
  'THB',
  'ZAR',
] as const;

/** `eurofxref-hist.csv`: "Date,USD,JPY,BGN,CYP,…,ZAR," then ISO-dated rows, newest first, `N/A` where a currency was not quoted. */
export function historyCsv(days: RateDay[]): string {
  const lines = [`Date,${HISTORY_CSV_COLUMNS.join(',')},`];
  for (const day of days) {
    const byCode = new Map(day.rates.map(([code, value, decimals]) => [code, formatRate(value, decimals, false)]));
    lines.push(`${isoDate(day.day)},${HISTORY_CSV_COLUMNS.map((code) => byCode.get(code) ?? 'N/A').join(',')},`);
  }
  return `${lines.join('\n')}\n`;
}

export type EcbFile = 'daily' | '90d' | 'hist' | 'daily-zip' | 'hist-zip';

/** The files for the day the clock says is the latest published one, cached per day. */
export function createEcbFiles(state: SandboxState): (file: EcbFile) => string | Buffer {
  const history = ratesFor(state.options.seed);
  const cache = new Map<string, string | Buffer>();
  return (file) => {
    const latest = latestPublishedDay(state.nowMs());
    const key = `${file}@${latest}`;
    let body = cache.get(key);
    if (body === undefined) {
      // The archive's timestamp: publication, about 16:00 CET (15:00 UTC in the sandbox).
      const published = new Date(latest * 86_400_000 + 15 * 3_600_000);
      if (file === 'daily') body = dailyXml(history.history(latest, latest)[0]);
      else if (file === '90d') body = historyXml(history.history(latest, latest - 90));
      else if (file === 'hist') body = historyXml(history.history(latest));
      else if (file === 'daily-zip')
        body = zipOneFile('eurofxref.csv', Buffer.from(dailyCsv(history.history(latest, latest)[0])), published);
      else body = zipOneFile('eurofxref-hist.csv', Buffer.from(historyCsv(history.history(latest))), published);
      if (cache.size > 12) cache.clear();
      cache.set(key, body);
    }
    return body;
  };
}

/** The ECB's reference-rate files under /stats/eurofxref/. */
export function registerEcb(
  app: FastifyInstance,
  state: SandboxState,
  files: (file: EcbFile) => string | Buffer,
): void {
  const serve = (file: EcbFile) => async (request: FastifyRequest, reply: FastifyReply) => {
    const fault = state.faults.take('ecb', pathOf(request), null);
    if (fault && applyFault(fault, request, reply)) return reply;
    const type = file.endsWith('-zip') ? 'application/zip' : 'text/xml';
    return reply.type(type).header('cache-control', 'max-age=300').send(files(file));
  };
  app.get('/stats/eurofxref/eurofxref-daily.xml', serve('daily'));
  app.get('/stats/eurofxref/eurofxref-hist-90d.xml', serve('90d'));
  app.get('/stats/eurofxref/eurofxref-hist.xml', serve('hist'));
  app.get('/stats/eurofxref/eurofxref.zip', serve('daily-zip'));
  app.get('/stats/eurofxref/eurofxref-hist.zip', serve('hist-zip'));
}
