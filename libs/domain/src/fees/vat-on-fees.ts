import type { BasisPoints } from './rounding';
import { standardVatRate } from './standard-vat-rates';

/**
 * VAT Etsy adds to its seller fees for sellers in the UK and the EU (integrations.md §a.8: fees
 * are quoted excluding VAT): the standard VAT rate of the seller's country (UK VAT for UK
 * sellers; for EU sellers Etsy Ireland charges the VAT of the seller's member state, as EU rules
 * for services to non-business customers ask). A VAT-registered EU seller is reverse-charged
 * and a VAT-registered UK seller reclaims it: for them it is not a cost (the engine's
 * `vatRegistered` setting). The ledger's `vat_seller_services` / `vat_on_processing_fees`
 * entries always win over this estimate. The rates are the dated, sourced standard rates of
 * `standard-vat-rates.ts`, at the order's date; null where Etsy adds none.
 */
export function vatOnFeesRate(country: string | null, onDate: string): BasisPoints | null {
  return standardVatRate(country, onDate);
}
