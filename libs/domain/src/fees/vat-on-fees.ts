import { basisPoints, type BasisPoints } from './rounding';

/**
 * VAT Etsy adds to its seller fees for sellers in the UK and the EU (integrations.md §a.8: fees
 * are quoted excluding VAT): the standard VAT rate of the seller's country (UK VAT for UK
 * sellers; for EU sellers Etsy Ireland charges the VAT of the seller's member state, as EU rules
 * for services to non-business customers ask). A VAT-registered EU seller is reverse-charged
 * and a VAT-registered UK seller reclaims it: for them it is not a cost (the engine's
 * `vatRegistered` setting). The ledger's `vat_seller_services` / `vat_on_processing_fees`
 * entries always win over this estimate. Rates as of 2026-11 (ADR 0026 lists their sources).
 */
// A Map, not an object lookup: a country named `constructor` must not find Object's.
const STANDARD_VAT_RATES = new Map<string, number>(
  Object.entries({
    GB: 2000,
    AT: 2000,
    BE: 2100,
    BG: 2000,
    CY: 1900,
    CZ: 2100,
    DE: 1900,
    DK: 2500,
    EE: 2400,
    ES: 2100,
    FI: 2550,
    FR: 2000,
    GR: 2400,
    HR: 2500,
    HU: 2700,
    IE: 2300,
    IT: 2200,
    LT: 2100,
    LU: 1700,
    LV: 2100,
    MT: 1800,
    NL: 2100,
    PL: 2300,
    PT: 2300,
    RO: 2100,
    SE: 2500,
    SI: 2200,
    SK: 2300,
  }),
);

/** The VAT rate on Etsy's fees for a seller's country (ISO alpha-2), or null where Etsy adds none. */
export function vatOnFeesRate(country: string | null): BasisPoints | null {
  if (!country) return null;
  const rate = STANDARD_VAT_RATES.get(country.trim().toUpperCase());
  return rate === undefined ? null : basisPoints(rate);
}
