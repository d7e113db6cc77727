import { isIsoCalendarDate, parsePositiveDecimal, type FxRateRow } from '@pod/domain';
import { MalformedResponseError } from '../http/errors';
import { parseXml, XmlSyntaxError, type XmlElement } from './xml';

/** One ECB day: foreign units per EUR, as canonical decimal strings (no trailing zeros). */
export interface EcbRateDay {
  date: string;
  rates: Array<{ currency: string; perEur: string }>;
}

const GESMES_NS = 'http://www.gesmes.org/xml/2002-08-01';
const EUROFXREF_NS = 'http://www.ecb.int/vocabulary/2002-08-01/eurofxref';
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

const bad = (what: string) => new MalformedResponseError('ecb', `ecb: ${what}`);

/**
 * "4.7630" and "4.763" are the same rate (the daily file keeps trailing zeros, the history
 * drops them): one canonical text, so re-loading a day from another file changes nothing.
 */
export function canonicalRate(text: string, where: string): string {
  try {
    parsePositiveDecimal(text);
  } catch {
    throw bad(`${where}: rate "${text.slice(0, 40)}" is not a positive decimal`);
  }
  const trimmed = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  return trimmed.replace(/^0+(?=\d)/, '');
}

function currencyOf(text: string, where: string): string {
  if (!/^[A-Z]{3}$/.test(text)) throw bad(`${where}: "${text.slice(0, 20)}" is not a currency code`);
  return text;
}

/** eurofxref-daily.xml, eurofxref-hist-90d.xml, eurofxref-hist.xml: gesmes:Envelope → Cube → Cube[time] → Cube[currency, rate]. */
export function parseEcbXml(body: string): EcbRateDay[] {
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw bad(`the XML is malformed (${error.message})`);
    throw error;
  }
  if (root.name !== 'Envelope' || root.namespace !== GESMES_NS) throw bad('the root is not gesmes:Envelope');
  const outer = root.children.filter((child) => child.name === 'Cube' && child.namespace === EUROFXREF_NS);
  if (outer.length !== 1) throw bad('expected one outer Cube');
  const days: EcbRateDay[] = [];
  const seen = new Set<string>();
  for (const dayCube of outer[0].children) {
    const date = dayCube.attributes.time;
    if (dayCube.name !== 'Cube' || !isIsoCalendarDate(date))
      throw bad(`a day Cube without a valid time ("${String(date).slice(0, 20)}")`);
    if (seen.has(date)) throw bad(`${date} appears twice`);
    seen.add(date);
    const rates = dayCube.children.map((cube) => {
      if (cube.name !== 'Cube') throw bad(`${date}: unexpected element ${cube.name}`);
      const currency = currencyOf(cube.attributes.currency ?? '', date);
      return { currency, perEur: canonicalRate(cube.attributes.rate ?? '', `${date} ${currency}`) };
    });
    days.push({ date, rates });
  }
  return days;
}

/** "09 February 2018" (the daily CSV) or "2018-02-09" (the history CSV) as an ISO date. */
function csvDate(text: string): string {
  const shown = text.slice(0, 30);
  if (isIsoCalendarDate(text)) return text;
  const match = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text);
  const month = match ? MONTHS.indexOf(match[2]) + 1 : 0;
  const iso = match && month > 0 ? `${match[3]}-${String(month).padStart(2, '0')}-${match[1].padStart(2, '0')}` : '';
  if (!isIsoCalendarDate(iso)) throw bad(`CSV date "${shown}" is neither ISO nor "DD Month YYYY"`);
  return iso;
}

/**
 * eurofxref.csv and eurofxref-hist.csv: a header "Date,USD,…," (the daily one with a space after
 * each comma), then one row per day; every line ends with a comma; `N/A` where a currency was not
 * quoted that day (it is left out, never stored as a number).
 */
export function parseEcbCsv(body: string): EcbRateDay[] {
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== '');
  const cellsOf = (line: string) => {
    const cells = line.split(',').map((cell) => cell.trim());
    if (cells.at(-1) === '') cells.pop();
    return cells;
  };
  if (lines.length === 0) throw bad('the CSV is empty');
  const header = cellsOf(lines[0]);
  if (header[0] !== 'Date' || header.length < 2) throw bad('the CSV header does not start with Date');
  const currencies = header.slice(1).map((code) => currencyOf(code, 'CSV header'));
  if (new Set(currencies).size !== currencies.length) throw bad('the CSV header names a currency twice');
  const seen = new Set<string>();
  return lines.slice(1).map((line, index) => {
    const cells = cellsOf(line);
    if (cells.length !== header.length)
      throw bad(`CSV row ${index + 1} has ${cells.length} cells, the header ${header.length}`);
    const date = csvDate(cells[0]);
    if (seen.has(date)) throw bad(`${date} appears twice`);
    seen.add(date);
    const rates: EcbRateDay['rates'] = [];
    currencies.forEach((currency, c) => {
      const cell = cells[c + 1];
      if (cell !== 'N/A' && cell !== '') rates.push({ currency, perEur: canonicalRate(cell, `${date} ${currency}`) });
    });
    return { date, rates };
  });
}

/** The rows for the fx_rate table and the domain's RateTable. */
export function toFxRateRows(days: readonly EcbRateDay[]): FxRateRow[] {
  return days.flatMap((day) =>
    day.rates.map((rate) => ({ date: day.date, currency: rate.currency, perEur: rate.perEur })),
  );
}
