import { basisPoints, type BasisPoints } from './rounding';

/**
 * Standard VAT rates of the UK and the EU member states, dated: the rate a VAT-registered seller
 * owes on a domestic sale (the VAT inside their own prices) and the rate Etsy adds to its fees.
 * Each row holds from `validFrom` until the next row of its country (ADR 0026, "VAT rates").
 *
 * Sources (read 2026-11-28): EU rates from the European Commission's TEDB and its DG TAXUD
 * booklet "VAT rates applied in the Member States" as transcribed, with dates, by
 * github.com/vatnode/eu-vat-rates-data `data/eu-vat-rates-history.json` (version 2026-08-26);
 * the UK's 20 % (from 2011-01-04) from github.com/adamcooke/vat-rates. Rows start at the last
 * change before 2020, far enough back for any order the app syncs; Germany's 16 % of
 * 2020-07-01 to 2020-12-31 is kept because orders of that half-year exist.
 */
export interface StandardVatRate {
  /** ISO 3166-1 alpha-2 (Greece as GR, the UK as GB). */
  readonly country: string;
  readonly rate: BasisPoints;
  /** YYYY-MM-DD. */
  readonly validFrom: string;
}

const TEDB = [
  ['AT', 2000, '1984-01-01'],
  ['BE', 2100, '1996-01-01'],
  ['BG', 2000, '1999-01-01'],
  ['CY', 1900, '2014-01-13'],
  ['CZ', 2100, '2013-01-01'],
  ['DE', 1900, '2007-01-01'],
  ['DE', 1600, '2020-07-01'],
  ['DE', 1900, '2021-01-01'],
  ['DK', 2500, '1992-01-01'],
  ['EE', 2000, '2009-07-01'],
  ['EE', 2200, '2024-01-01'],
  ['EE', 2400, '2025-07-01'],
  ['ES', 2100, '2012-09-01'],
  ['FI', 2400, '2013-01-01'],
  ['FI', 2550, '2024-09-01'],
  ['FR', 2000, '2014-01-01'],
  ['GR', 2400, '2016-06-01'],
  ['HR', 2500, '2012-03-01'],
  ['HU', 2700, '2012-01-01'],
  ['IE', 2300, '2012-01-01'],
  ['IE', 2100, '2020-09-01'],
  ['IE', 2300, '2021-03-01'],
  ['IT', 2200, '2013-10-01'],
  ['LT', 2100, '2009-09-01'],
  ['LU', 1700, '2015-01-01'],
  ['LU', 1600, '2023-01-01'],
  ['LU', 1700, '2024-01-01'],
  ['LV', 2100, '2012-07-01'],
  ['MT', 1800, '2004-01-01'],
  ['NL', 2100, '2012-10-01'],
  ['PL', 2300, '2011-01-01'],
  ['PT', 2300, '2011-01-01'],
  ['RO', 1900, '2017-01-01'],
  ['RO', 2100, '2025-08-01'],
  ['SE', 2500, '1990-07-01'],
  ['SI', 2200, '2013-07-01'],
  ['SK', 2000, '2011-01-01'],
  ['SK', 2300, '2025-01-01'],
  ['GB', 2000, '2011-01-04'],
] as const;

export const STANDARD_VAT_RATES: readonly StandardVatRate[] = TEDB.map(([country, rate, validFrom]) => ({
  country,
  rate: basisPoints(rate),
  validFrom,
}));

/**
 * The standard VAT rate of a country (ISO alpha-2, any case) on a date (YYYY-MM-DD): the row
 * with the latest `validFrom` at or before it; null outside the UK and the EU (or before the
 * table's first row of that country).
 */
export function standardVatRate(
  country: string | null,
  onDate: string,
  table: readonly StandardVatRate[] = STANDARD_VAT_RATES,
): BasisPoints | null {
  if (!country) return null;
  const code = country.trim().toUpperCase();
  let best: StandardVatRate | null = null;
  for (const row of table)
    if (row.country === code && row.validFrom <= onDate && (!best || row.validFrom > best.validFrom)) best = row;
  return best ? best.rate : null;
}
