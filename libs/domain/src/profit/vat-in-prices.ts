import { standardVatRate } from '../fees/standard-vat-rates';
import type { BasisPoints } from '../fees/rounding';
import type { EtsyReceiptInput, ProfitSettings } from './inputs';

/**
 * The VAT rate inside the price of a sale whose VAT the seller (not Etsy) accounts for, or null
 * when there is none to take out of revenue (ADR 0026, "VAT in your prices").
 *
 * A UK/EU VAT-registered seller must include the VAT they owe in their listing prices (Etsy help
 * "How VAT Works on Physical Items", article 360000337247: "it is your responsibility to include
 * applicable VAT in your listing prices"). Etsy collects VAT itself only where marketplace rules
 * make it the deemed supplier (digital items, imports into the UK/EU): then `total_vat_cost` is
 * on top of the price and revenue already excludes it. So the VAT is inside the price when:
 * the seller is VAT-registered, their country has a standard VAT rate on the order's date,
 * Etsy collected no VAT on the receipt, and the buyer is in the seller's own country (a domestic
 * sale, taxed at the seller's standard rate). Not modelled: cross-border sales inside the EU
 * (OSS, the buyer country's rate), reduced or zero rates (children's clothes, books), receipts
 * whose buyer country Etsy withholds: none of them is taken out.
 */
export function vatInPricesRate(
  receipt: EtsyReceiptInput,
  settings: Pick<ProfitSettings, 'vatRegistered' | 'bankCountry'>,
  orderDate: string,
): BasisPoints | null {
  if (!settings.vatRegistered || (receipt.totalVatMinor ?? 0) !== 0) return null;
  const seller = settings.bankCountry?.trim().toUpperCase();
  const buyer = receipt.buyerCountry?.trim().toUpperCase();
  if (!seller || seller !== buyer) return null;
  return standardVatRate(seller, orderDate);
}
