import { basisPoints, type BasisPoints } from './rounding';

/**
 * Etsy's regulatory operating fee, charged to sellers of some countries as a percentage of the
 * item price plus shipping and gift wrap (ADR 0026). Rates change, so each row says from when
 * it holds; the ledger's own `regulatory_operating_fee` entry always wins over this estimate.
 *
 * `validFrom` null: the rate was in force on the day its source was read (`readOn`), and the
 * date it started is not confirmed. It is used for earlier orders too, marked in the note,
 * because an estimate near the truth beats a silent zero; a later row, once confirmed, takes
 * over from its own date.
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

const HELP_ARTICLE = 'help.etsy.com article 1500011073202 (Polish edition)';

export const REGULATORY_FEE_RATES: readonly RegulatoryFeeRate[] = [
  { country: 'GB', rate: basisPoints(32), validFrom: null, readOn: '2026-11-28', source: HELP_ARTICLE },
  { country: 'FR', rate: basisPoints(47), validFrom: null, readOn: '2026-11-28', source: HELP_ARTICLE },
  { country: 'IT', rate: basisPoints(32), validFrom: null, readOn: '2026-11-28', source: HELP_ARTICLE },
  { country: 'ES', rate: basisPoints(40), validFrom: null, readOn: '2026-11-28', source: HELP_ARTICLE },
  { country: 'TR', rate: basisPoints(110), validFrom: null, readOn: '2026-11-28', source: HELP_ARTICLE },
];

/**
 * The rate in force for a seller's country on a date (YYYY-MM-DD): the row with the latest
 * `validFrom` at or before the date (an undated row counts as the earliest); null when Etsy
 * charges that country no such fee, as far as the table knows.
 */
export function regulatoryFeeRate(
  country: string | null,
  onDate: string,
  table: readonly RegulatoryFeeRate[] = REGULATORY_FEE_RATES,
): RegulatoryFeeRate | null {
  if (!country) return null;
  const code = country.trim().toUpperCase();
  let best: RegulatoryFeeRate | null = null;
  for (const row of table) {
    if (row.country !== code) continue;
    if (row.validFrom !== null && row.validFrom > onDate) continue;
    if (!best || (row.validFrom ?? '') > (best.validFrom ?? '')) best = row;
  }
  return best;
}
