import { estimateFees } from './estimate';
import type { FeeKind } from './fee-kinds';
import { OFFSITE_ADS_CAP } from './fee-schedule';
import { money } from '../money';
import type { CostComponent } from '../profit/components';
import { convertForDisplay, isRateUnavailable, type DisplayConversion, type DisplayRateUnavailable } from '../profit/converter';
import { paymentAccountCurrency, type RecordedFees } from './recorded-fees';
import type { EtsyReceiptInput, OrderProfitInput, ProfitSettings } from '../profit/inputs';
import type { RevenueBreakdown } from '../profit/revenue';

/** Etsy charges these on every sale: missing from the payment and ledger means not recorded yet. */
const ALWAYS_CHARGED: readonly FeeKind[] = ['transaction', 'processing', 'listing'];

export interface OrderFeeEstimates {
  readonly components: CostComponent[];
  readonly notEstimated: FeeKind[];
  /** The Offsite Ads cap could not be put in the shop's currency. */
  readonly capUnavailable: DisplayRateUnavailable | null;
  /** The cap in the shop's currency, when it was converted (its rate may be provisional). */
  readonly capConversion: DisplayConversion | null;
}

/**
 * The schedule's estimates for the fee kinds one receipt's payment and ledger do not record
 * (ADR 0010's table). A canceled or fully refunded receipt gets none.
 */
export function orderFeeEstimates(
  receipt: EtsyReceiptInput,
  revenue: RevenueBreakdown,
  recorded: RecordedFees,
  input: OrderProfitInput,
  settings: ProfitSettings,
  orderDate: string,
): OrderFeeEstimates {
  if (revenue.voided) return { components: [], notEstimated: [], capUnavailable: null, capConversion: null };
  const wanted = new Set<FeeKind>(ALWAYS_CHARGED.filter((kind) => !recorded.recorded.has(kind)));
  if (!recorded.recorded.has('currency_conversion')) wanted.add('currency_conversion');

  let offsiteAds = null;
  let capUnavailable: DisplayRateUnavailable | null = null;
  let capConversion: DisplayConversion | null = null;
  if (input.offsiteAdsAttributed && !recorded.recorded.has('offsite_ads')) {
    const cap = convertForDisplay(settings.convert, OFFSITE_ADS_CAP, receipt.currency, orderDate);
    if (isRateUnavailable(cap)) capUnavailable = cap;
    else {
      capConversion = cap;
      wanted.add('offsite_ads');
      offsiteAds = { tier: settings.offsiteAdsTier, capInShopCurrency: cap.amount };
    }
  }

  const { estimates, notEstimated } = estimateFees(wanted, {
    revenue: revenue.revenue,
    buyerPaid: money(Math.max(0, revenue.buyerPaid.amountMinor - revenue.refunded.amountMinor), receipt.currency),
    wasPaid: revenue.buyerPaid.amountMinor > 0,
    units: receipt.lines.reduce((sum, line) => sum + Math.max(0, line.quantity), 0),
    bankCountry: settings.bankCountry,
    accountCurrency: paymentAccountCurrency(settings.paymentAccountCurrency, input.ledgerEntries),
    offsiteAds,
  });
  // Regulatory fees and VAT on fees have no usable rate in the schedule: only the ledger knows them.
  if (input.ledgerEntries.length === 0) notEstimated.push('regulatory', 'vat_on_fees');
  return {
    components: estimates.map((fee) => ({
      kind: fee.kind,
      source: 'estimate',
      estimated: true,
      original: fee.amount,
      note: fee.note,
      ...(fee.part ? { part: fee.part } : {}),
    })),
    notEstimated,
    capUnavailable,
    capConversion,
  };
}
