import type { CurrencyCode } from '../currency';
import { money, MixedCurrencyError, type Money } from '../money';
import type { FeeKind } from './fee-kinds';
import {
  CURRENCY_CONVERSION_RATE,
  LISTING_FEE_PER_UNIT,
  OFFSITE_ADS_RATES,
  processingFeeRule,
  TRANSACTION_FEE_RATE,
  type OffsiteAdsTier,
} from './fee-schedule';
import type { RegulatoryFeeRate } from './regulatory-fee';
import { applyBasisPoints } from './rounding';

/**
 * Etsy's fees for one order estimated from the schedule (integrations.md §a.8), for the kinds
 * the payment and ledger have no figure for yet. Every percentage is taken of amounts after
 * refunds (Etsy credits fees back pro rata: the ledger's `*_refund` types), rounded half to
 * even to the minor unit; fixed fees stay once the order was paid.
 */
export interface FeeEstimateBases {
  /** Items after discounts + shipping + gift wrap, after refunds, tax excluded: the transaction, Offsite Ads and conversion base. */
  readonly revenue: Money;
  /** What the buyer paid (items + shipping + gift wrap + tax + VAT), less refunds: the processing base. */
  readonly buyerPaid: Money;
  /** Whether the buyer paid anything before refunds (the fixed processing fee is then due). */
  readonly wasPaid: boolean;
  /** Units sold across the order's listing lines (`renew_sold` per unit). */
  readonly units: number;
  readonly bankCountry: string | null;
  /** The payment account's currency; null when not known. */
  readonly accountCurrency: CurrencyCode | null;
  /** The regulatory operating fee's rate for the seller's country and the order's date; null where none applies. */
  readonly regulatory?: RegulatoryFeeRate | null;
  /** Offsite Ads, when the sale is known to be attributed: the tier and the USD 100 cap in the shop's currency. */
  readonly offsiteAds: { readonly tier: OffsiteAdsTier; readonly capInShopCurrency: Money } | null;
}

/**
 * Which part of a fee charged as a percentage plus a fixed amount an estimate is (payment
 * processing: the bank country's percentage of what the buyer paid, and its fixed fee per
 * order), so the two lines read apart.
 */
export type FeePart = { readonly part: 'percentage'; readonly basisPoints: number } | { readonly part: 'fixed' };

export interface FeeEstimate {
  readonly kind: FeeKind;
  readonly amount: Money;
  readonly note: string;
  readonly part?: FeePart;
}

export interface FeeEstimates {
  readonly estimates: FeeEstimate[];
  /** Kinds that may apply but the schedule cannot estimate here (unknown bank country, unknown account currency). */
  readonly notEstimated: FeeKind[];
}

export function estimateFees(wanted: ReadonlySet<FeeKind>, bases: FeeEstimateBases): FeeEstimates {
  const { revenue, buyerPaid } = bases;
  if (revenue.currency !== buyerPaid.currency) throw new MixedCurrencyError([revenue.currency, buyerPaid.currency]);
  const estimates: FeeEstimate[] = [];
  const notEstimated: FeeKind[] = [];

  if (wanted.has('transaction')) {
    estimates.push({
      kind: 'transaction',
      amount: applyBasisPoints(revenue, TRANSACTION_FEE_RATE),
      note: '6.5% of items, shipping and gift wrap',
    });
  }
  if (wanted.has('processing')) {
    const rule = processingFeeRule(bases.bankCountry);
    if (!rule) notEstimated.push('processing');
    else {
      const flag = rule.unconfirmed ? ' (rate UNCONFIRMED)' : '';
      estimates.push({
        kind: 'processing',
        amount: applyBasisPoints(buyerPaid, rule.rate),
        note: `${rule.rate / 100}% of what the buyer paid${flag}`,
        part: { part: 'percentage', basisPoints: rule.rate },
      });
      if (bases.wasPaid)
        estimates.push({
          kind: 'processing',
          amount: rule.fixed,
          note: `fixed fee per order${flag}`,
          part: { part: 'fixed' },
        });
    }
  }
  if (wanted.has('listing') && bases.units > 0) {
    const amount = money(LISTING_FEE_PER_UNIT.amountMinor * bases.units, LISTING_FEE_PER_UNIT.currency);
    estimates.push({ kind: 'listing', amount, note: `USD 0.20 × ${bases.units} unit(s) sold` });
  }
  if (wanted.has('offsite_ads') && bases.offsiteAds) {
    const { tier, capInShopCurrency: cap } = bases.offsiteAds;
    if (cap.currency !== revenue.currency) throw new MixedCurrencyError([revenue.currency, cap.currency]);
    const rate = OFFSITE_ADS_RATES[tier];
    const uncapped = applyBasisPoints(revenue, rate);
    const capped = uncapped.amountMinor > cap.amountMinor;
    estimates.push({
      kind: 'offsite_ads',
      amount: capped ? cap : uncapped,
      note: `${rate / 100}% of the order${capped ? ', capped at USD 100' : ''}`,
    });
  }
  if (wanted.has('currency_conversion')) {
    if (bases.accountCurrency === null) notEstimated.push('currency_conversion');
    else if (bases.accountCurrency !== revenue.currency) {
      const amount = applyBasisPoints(revenue, CURRENCY_CONVERSION_RATE);
      estimates.push({
        kind: 'currency_conversion',
        amount,
        note: `2.5%: listed in ${revenue.currency}, paid out in ${bases.accountCurrency}`,
      });
    }
  }
  if (wanted.has('regulatory') && bases.regulatory) {
    const { rate, country, validFrom, readOn } = bases.regulatory;
    const since = validFrom ? `since ${validFrom}` : `as read ${readOn}, start date unconfirmed`;
    estimates.push({
      kind: 'regulatory',
      amount: applyBasisPoints(revenue, rate),
      note: `${rate / 100}% of items, shipping and gift wrap (${country} rate ${since})`,
    });
  }
  return { estimates, notEstimated };
}
