import type { CurrencyCode } from '../currency';
import { money, type Money } from '../money';
import { basisPoints, type BasisPoints } from './rounding';

/**
 * Etsy's fee schedule, for estimates while an order has no payment or ledger data yet
 * (integrations.md §a.8). Rates are basis points so every estimate is integer math; fixed fees
 * are Money in the currency Etsy quotes them in. Only the schedule's rows are here: rates the
 * document marks UNCONFIRMED are flagged, and fees it gives no usable rate for (regulatory
 * operating fee, VAT on fees) are not estimated at all.
 */

/** 6.5% of item price plus shipping and gift wrap, in the listing currency. */
export const TRANSACTION_FEE_RATE: BasisPoints = basisPoints(650);

/** USD 0.20 per listing; a multi-quantity listing is charged again per extra unit sold (`renew_sold`). */
export const LISTING_FEE_PER_UNIT: Money = money(20, 'USD');

/** Offsite Ads: 15% under USD 10k of sales in the last 365 days, 12% at or above; at most USD 100 an order. */
export const OFFSITE_ADS_RATES = { under_10k: basisPoints(1500), at_least_10k: basisPoints(1200) } as const;
export type OffsiteAdsTier = keyof typeof OFFSITE_ADS_RATES;
export const OFFSITE_ADS_CAP: Money = money(10_000, 'USD');

/** 2.5% when the listing currency differs from the payment account's. */
export const CURRENCY_CONVERSION_RATE: BasisPoints = basisPoints(250);

export interface ProcessingFeeRule {
  readonly rate: BasisPoints;
  readonly fixed: Money;
  /** The schedule itself marks this country's rule UNCONFIRMED. */
  readonly unconfirmed: boolean;
}

const rule = (rate: number, fixedMinor: number, currency: CurrencyCode, unconfirmed: boolean): ProcessingFeeRule => ({
  rate: basisPoints(rate),
  fixed: money(fixedMinor, currency),
  unconfirmed,
});

/**
 * Euro-area countries whose bank accounts get the Eurozone rule. Bulgaria is left out: it
 * joined the euro in 2026, and what Etsy charged BGN accounts before is not in the schedule.
 */
const EURO_AREA = [
  'AT',
  'BE',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
];

const PROCESSING_BY_COUNTRY = new Map<string, ProcessingFeeRule>([
  ['US', rule(300, 25, 'USD', false)],
  ['GB', rule(400, 20, 'GBP', false)],
  ...EURO_AREA.map((country): [string, ProcessingFeeRule] => [country, rule(400, 30, 'EUR', false)]),
  ['CA', rule(300, 25, 'CAD', true)],
  ['AU', rule(300, 25, 'AUD', true)],
  ['IN', rule(500, 2500, 'INR', true)],
  ['SG', rule(440, 35, 'SGD', true)],
]);

/**
 * Payment processing is set by the country of the seller's bank account (ISO 3166 alpha-2);
 * null for a country the schedule does not cover, which is then not estimated.
 */
export function processingFeeRule(bankCountry: string | null): ProcessingFeeRule | null {
  if (!bankCountry) return null;
  return PROCESSING_BY_COUNTRY.get(bankCountry.trim().toUpperCase()) ?? null;
}
