import { vatArea, type BuyerPlace } from './geography';
import type { OrderLine } from './order-generator';

/**
 * The VAT Etsy collects on a receipt (`total_vat_cost`, integrations.md a.5). What a.5 documents:
 * VAT has its own field, separate from sales tax (`total_tax_cost`); it is on top of the prices,
 * not inside them (a Slovak digital order: `subtotal` 100 + `total_vat_cost` 20 = `grandtotal`
 * 120, and `grandtotal` includes `total_vat_cost` when VAT is collected); and it is collected
 * whatever the shop's currency (that order's shop is not Slovak).
 *
 * When Etsy collects it is not written there, so these are the sandbox's readings (UNCONFIRMED):
 * - digital lines bought by a buyer in the EU or the UK: Etsy collects the buyer country's VAT on
 *   them, for every shop, domestic or not (the documented case);
 * - physical lines sent into the EU or the UK from a seller outside that VAT area (a USD shop to
 *   Germany, a GBP shop to France, a EUR shop to the UK): Etsy collects the import VAT, on the
 *   line's price and its shipping;
 * - a seller's domestic or same-area sale of physical goods carries no `total_vat_cost`: the
 *   seller's own VAT is inside its listing prices (a.8: "VAT in the price"), and the receipt shows
 *   none on top.
 */
export function etsyCollectedVat(sellerCountry: string, place: BuyerPlace, lines: readonly OrderLine[]): number {
  const buyerArea = vatArea(place.country);
  if (buyerArea === null || place.vat === 0) return 0;
  const imported = vatArea(sellerCountry) !== buyerArea;
  let base = 0;
  for (const line of lines) {
    const paid = line.unitPrice * line.quantity - line.discountShare;
    if (line.isDigital) base += paid;
    else if (imported) base += paid + line.shipping;
  }
  return Math.round(base * place.vat);
}
