import { basisPoints, type BasisPoints } from './rounding';

/**
 * Etsy's regulatory operating fee, charged to sellers of some countries as a percentage of the
 * item price plus shipping and gift wrap (ADR 0026). Rates change, so each row says from when
 * it holds; the ledger's own `regulatory_operating_fee` entry always wins over this estimate.
 *
 * A dated row (`validFrom`) holds from that day. An undated row is a rate seen in force on the
 * day its source was read (`readOn`) whose start is not confirmed: it holds from the country's
 * first dated row (the fee's confirmed start; no fee before it) and supersedes the dated rows
 * that start before its `readOn` (it is the newer knowledge), until a dated row starting after
 * its `readOn` takes over. A country with no dated row applies its undated rate to every date.
 */
export interface RegulatoryFeeRate {
  /** ISO 3166-1 alpha-2 of the seller (the shop's country stands in for it). */
  readonly country: string;
  readonly rate: BasisPoints;
  /** YYYY-MM-DD, or null when the start date is not confirmed (see above). */
  readonly validFrom: string | null;
  /** The day the source was read. */
  readonly readOn: string;
  readonly source: string;
}

// "Dal primo luglio 2021" (from 1 July 2021): UK 0.25%, France 0.40%, Italy 0.25%, Spain 0.40%, Turkey 1.1%.
const LAUNCH = 'help.etsy.com article 1500011073202 (Italian edition): from 2021-07-01';
// The same article's Polish edition: UK 0.32%, France 0.47%, Italy 0.32%, Spain 0.40%, Turkey 1.1%, undated.
const CURRENT = 'help.etsy.com article 1500011073202 (Polish edition)';

const row = (country: string, rate: number, validFrom: string | null, source: string): RegulatoryFeeRate => ({
  country,
  rate: basisPoints(rate),
  validFrom,
  readOn: '2026-11-28',
  source,
});

export const REGULATORY_FEE_RATES: readonly RegulatoryFeeRate[] = [
  row('GB', 25, '2021-07-01', LAUNCH),
  row('GB', 32, null, CURRENT),
  row('FR', 40, '2021-07-01', LAUNCH),
  row('FR', 47, null, CURRENT),
  row('IT', 25, '2021-07-01', LAUNCH),
  row('IT', 32, null, CURRENT),
  // Spain and Turkey: the same rate at launch and when read, so the launch date stands.
  row('ES', 40, '2021-07-01', LAUNCH),
  row('TR', 110, '2021-07-01', LAUNCH),
];

/**
 * The rate in force for a seller's country on a date (YYYY-MM-DD), by the rules above; null
 * when Etsy charges that country no such fee on that date, as far as the table knows.
 */
export function regulatoryFeeRate(
  country: string | null,
  onDate: string,
  table: readonly RegulatoryFeeRate[] = REGULATORY_FEE_RATES,
): RegulatoryFeeRate | null {
  if (!country) return null;
  const code = country.trim().toUpperCase();
  const rows = table.filter((candidate) => candidate.country === code);
  const starts = rows.flatMap((candidate) => (candidate.validFrom === null ? [] : [candidate.validFrom]));
  if (starts.length > 0 && onDate < starts.reduce((a, b) => (a < b ? a : b))) return null;
  // Each applicable row's "known from" day: a dated row's start, an undated row's reading.
  const knownFrom = (candidate: RegulatoryFeeRate) => candidate.validFrom ?? candidate.readOn;
  let best: RegulatoryFeeRate | null = null;
  for (const candidate of rows) {
    if (candidate.validFrom !== null && candidate.validFrom > onDate) continue;
    if (!best || knownFrom(candidate) > knownFrom(best)) best = candidate;
  }
  return best;
}
