import type { CurrencyCode } from '../currency';
import { money } from '../money';
import type { CostComponent } from '../profit/components';
import type { EstimateReason } from '../profit/estimate-reasons';
import {
  convertForDisplay,
  isRateUnavailable,
  type DisplayConversion,
  type DisplayRateUnavailable,
} from '../profit/converter';
import type { EtsyReceiptInput, OrderProfitInput, ProfitSettings } from '../profit/inputs';
import type { RevenueBreakdown } from '../profit/revenue';
import { estimateFees } from './estimate';
import type { FeeKind } from './fee-kinds';
import { OFFSITE_ADS_CAP } from './fee-schedule';
import { paymentAccountCurrency, type RecordedFees } from './recorded-fees';
import { regulatoryFeeRate } from './regulatory-fee';
import { applyBasisPoints } from './rounding';
import { vatOnFeesRate } from './vat-on-fees';

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

const NONE: OrderFeeEstimates = { components: [], notEstimated: [], capUnavailable: null, capConversion: null };

/**
 * The schedule's estimates for the fee kinds one receipt's payment and ledger do not record
 * (ADR 0010's table, ADR 0026). An unpaid receipt gets none (nothing is charged until it is
 * paid). A canceled or fully refunded one keeps only its listing fee: the renewal happened
 * when it sold and listing fees are non-refundable, unless the ledger credits it (then the
 * ledger records it). UK/EU sellers pay VAT on every fee, the estimates' included.
 */
export function orderFeeEstimates(
  receipt: EtsyReceiptInput,
  revenue: RevenueBreakdown,
  recorded: RecordedFees,
  input: OrderProfitInput,
  settings: ProfitSettings,
  orderDate: string,
): OrderFeeEstimates {
  if (revenue.unpaid) return NONE;
  const wanted = new Set<FeeKind>(ALWAYS_CHARGED.filter((kind) => !recorded.recorded.has(kind)));
  if (revenue.voided) {
    if (!wanted.has('listing')) return NONE;
    wanted.clear();
    wanted.add('listing');
  } else {
    if (!recorded.recorded.has('currency_conversion')) wanted.add('currency_conversion');
    if (!recorded.recorded.has('regulatory')) wanted.add('regulatory');
  }

  let offsiteAds = null;
  let capUnavailable: DisplayRateUnavailable | null = null;
  let capConversion: DisplayConversion | null = null;
  if (!revenue.voided && input.offsiteAdsAttributed && !recorded.recorded.has('offsite_ads')) {
    const cap = convertForDisplay(settings.convert, OFFSITE_ADS_CAP, receipt.currency, orderDate);
    if (isRateUnavailable(cap)) capUnavailable = cap;
    else {
      capConversion = cap;
      wanted.add('offsite_ads');
      offsiteAds = { tier: settings.offsiteAdsTier, capInShopCurrency: cap.amount };
    }
  }

  const { estimates, notEstimated } = estimateFees(wanted, {
    // Etsy charges its fees on the whole price, the VAT a registered seller remits included.
    revenue: money(revenue.revenue.amountMinor + revenue.vatInPrices.amountMinor, receipt.currency),
    buyerPaid: money(Math.max(0, revenue.buyerPaid.amountMinor - revenue.refunded.amountMinor), receipt.currency),
    wasPaid: revenue.buyerPaid.amountMinor > 0,
    units: receipt.lines.reduce((sum, line) => sum + Math.max(0, line.quantity), 0),
    bankCountry: settings.bankCountry,
    accountCurrency: paymentAccountCurrency(settings.paymentAccountCurrency, input.ledgerEntries),
    offsiteAds,
    regulatory: regulatoryFeeRate(settings.bankCountry, orderDate),
  });
  const awaiting = awaitingReason(input);
  const components: CostComponent[] = estimates.map((fee) => ({
    kind: fee.kind,
    source: 'estimate',
    estimated: true,
    original: fee.amount,
    note: fee.note,
    ...(fee.part ? { part: fee.part } : {}),
    // Etsy lists no conversion fee per order (ADR 0026): that estimate is never replaced.
    estimateReason: fee.kind === 'currency_conversion' ? 'not_itemised' : awaiting,
  }));
  components.push(...vatOnFeesEstimates(components, recorded, input, settings, orderDate));
  return { components, notEstimated, capUnavailable, capConversion };
}

/** Why a fee Etsy does list is estimated: the order's ledger has not arrived at all, or lacks that fee. */
const awaitingReason = (input: OrderProfitInput): EstimateReason =>
  input.ledgerEntries.length === 0 ? 'ledger_not_arrived' : 'not_in_ledger';

/**
 * VAT on the fees that carry none yet, at the seller's country's rate, one line per currency:
 * on every estimate; and on the recorded fees too while the order has no ledger entry at all
 * (the ledger's VAT entries are not in yet). Once the ledger has the order's entries, the VAT
 * they hold (or its absence: a reverse-charged seller) is the truth for the recorded fees.
 * None for a VAT-registered seller, who reclaims it.
 */
function vatOnFeesEstimates(
  estimates: readonly CostComponent[],
  recorded: RecordedFees,
  input: OrderProfitInput,
  settings: ProfitSettings,
  orderDate: string,
): CostComponent[] {
  if (settings.vatRegistered) return [];
  const rate = vatOnFeesRate(settings.bankCountry, orderDate);
  if (rate === null) return [];
  const taxed = [...estimates];
  if (input.ledgerEntries.length === 0 && !recorded.recorded.has('vat_on_fees'))
    taxed.push(...recorded.components.filter((cost) => cost.kind !== 'vat_on_fees'));
  const byCurrency = new Map<CurrencyCode, number>();
  for (const fee of taxed)
    byCurrency.set(fee.original.currency, (byCurrency.get(fee.original.currency) ?? 0) + fee.original.amountMinor);
  const country = settings.bankCountry?.trim().toUpperCase() ?? '';
  return [...byCurrency]
    .filter(([, minor]) => minor !== 0)
    .map(([currency, minor]) => ({
      kind: 'vat_on_fees' as const,
      source: 'estimate' as const,
      estimated: true,
      original: applyBasisPoints(money(minor, currency), rate),
      note: `${rate / 100}% ${country} VAT on ${estimates.length === taxed.length ? 'the estimated fees' : "Etsy's fees"}`,
      // VAT on nothing but the conversion fee is never itemised either.
      estimateReason: taxed.every((fee) => fee.estimateReason === 'not_itemised')
        ? ('not_itemised' as const)
        : awaitingReason(input),
    }));
}
