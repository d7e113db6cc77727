import type { CurrencyCode } from '../currency';
import type { FeeKind } from './fee-kinds';
import { ledgerMeaning } from './ledger-types';
import { money, MoneyError } from '../money';
import type { CostComponent } from '../profit/components';
import type { EtsyLedgerEntryInput, EtsyPaymentInput } from '../profit/inputs';

/**
 * Etsy's fees for an order as Etsy recorded them (integrations.md §a.6, §a.7), before any
 * estimate. The payment-processing fee is on the payment record (`amount_fees`, after refunds
 * `adjusted_fees`) and also in the ledger (`PAYMENT_PROCESSING_FEE`, `REFUND_PROCESSING_FEE`):
 * when the order has a payment, the payment is the source and those ledger entries are left
 * out, so the fee is never counted twice. Every other fee is only in the ledger. Ledger debits
 * are negative, so a fee's cost is minus the sum of its entries (a `*_refund` credit lowers it).
 */
export interface RecordedFees {
  readonly components: CostComponent[];
  /** Fee kinds the payment or ledger gave a figure for (even zero): those are never estimated. */
  readonly recorded: ReadonlySet<FeeKind>;
}

function whole(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new MoneyError(`${what} is not a whole number of minor units`);
  return value;
}

/** The payment's processing fee after refunds: adjusted, else as posted at shipping, else as charged. */
function paymentFee(payment: EtsyPaymentInput): { minor: number; column: string } {
  if (payment.adjustedFeesMinor !== null) return { minor: payment.adjustedFeesMinor, column: 'adjusted_fees' };
  if (payment.postedFeesMinor !== null) return { minor: payment.postedFeesMinor, column: 'posted_fees' };
  return { minor: payment.amountFeesMinor, column: 'amount_fees' };
}

export function recordedFees(
  payments: readonly EtsyPaymentInput[],
  entries: readonly EtsyLedgerEntryInput[],
): RecordedFees {
  const components: CostComponent[] = [];
  const recorded = new Set<FeeKind>();

  const byPaymentCurrency = new Map<CurrencyCode, { minor: number; notes: string[] }>();
  for (const payment of payments) {
    const fee = paymentFee(payment);
    const group = byPaymentCurrency.get(payment.currency) ?? { minor: 0, notes: [] };
    group.minor += whole(fee.minor, `payment ${payment.paymentId} ${fee.column}`);
    group.notes.push(`payment ${payment.paymentId} ${fee.column}`);
    byPaymentCurrency.set(payment.currency, group);
  }
  for (const [currency, group] of byPaymentCurrency) {
    recorded.add('processing');
    components.push({
      kind: 'processing',
      source: 'payment',
      estimated: false,
      original: money(group.minor, currency),
      note: group.notes.join(', '),
    });
  }

  const byKindAndCurrency = new Map<
    string,
    { kind: FeeKind; currency: CurrencyCode; minor: number; types: Set<string> }
  >();
  for (const entry of entries) {
    const meaning = ledgerMeaning(entry.ledgerType);
    if (meaning.role !== 'fee') continue;
    if (meaning.fee === 'processing' && payments.length > 0) continue;
    const key = `${meaning.fee}:${entry.currency}`;
    const group = byKindAndCurrency.get(key) ?? {
      kind: meaning.fee,
      currency: entry.currency,
      minor: 0,
      types: new Set<string>(),
    };
    group.minor -= whole(entry.amountMinor, `ledger entry ${entry.entryId} amount`);
    group.types.add(entry.ledgerType.trim());
    byKindAndCurrency.set(key, group);
  }
  for (const group of byKindAndCurrency.values()) {
    recorded.add(group.kind);
    components.push({
      kind: group.kind,
      source: 'ledger',
      estimated: false,
      original: money(group.minor, group.currency),
      note: `ledger: ${[...group.types].sort().join(', ')}`,
    });
  }
  return { components, recorded };
}

/** The payment account's currency: the setting, else the currency the order's ledger entries are in. */
export function paymentAccountCurrency(
  setting: CurrencyCode | null,
  entries: readonly EtsyLedgerEntryInput[],
): CurrencyCode | null {
  return setting ?? entries[0]?.currency ?? null;
}
