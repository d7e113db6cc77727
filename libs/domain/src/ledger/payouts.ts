import { ledgerClass, isSoldListingFee } from '../fees/ledger-types';
import { MoneyError } from '../money';
import { shopCostKindOf } from './shop-costs';

/** The lines a payout's covered entries are summed into on the Payouts page. */
export const PAYOUT_LINES = ['sales', 'fees', 'refunds', 'shop_costs', 'taxes', 'transfers', 'other'] as const;
export type PayoutLine = (typeof PAYOUT_LINES)[number];

/** What the payout line of an entry depends on: its type, the type of the entry it taxes, and whether its order is linked. */
export interface PayoutEntryShape {
  readonly ledgerType: string;
  readonly parentLedgerType: string | null;
  readonly linkedToOrder: boolean;
}

/**
 * The Payouts page's line of a ledger entry: the sale, refunds to the buyer, sales tax, order
 * fees, shop costs (with VAT on them), bills paid and other transfers, and `other` for types
 * nobody has classified (shown, never dropped). An unattributed `renew_sold` is a shop cost, as
 * on the Dashboard; VAT on a fee goes where its fee goes.
 */
export function payoutLineOf(entry: PayoutEntryShape): PayoutLine {
  const meaning = ledgerClass(entry.ledgerType);
  switch (meaning.class) {
    case 'order':
      if (meaning.role === 'sale') return 'sales';
      if (meaning.role === 'refund_to_buyer') return 'refunds';
      if (meaning.role === 'sales_tax') return 'taxes';
      return !entry.linkedToOrder && isSoldListingFee(entry.ledgerType) ? 'shop_costs' : 'fees';
    case 'shop_cost':
      return 'shop_costs';
    case 'payout':
      return 'transfers';
    case 'unclassified':
      return 'other';
    case 'vat_on_fee': {
      // VAT follows the fee it taxes; VAT whose fee is not stored is a shop cost (kind `vat`).
      if (entry.linkedToOrder) return 'fees';
      if (entry.parentLedgerType === null) return 'shop_costs';
      const parent = { ledgerType: entry.parentLedgerType, parentEntryId: null, linkedToOrder: false };
      return shopCostKindOf(parent, () => undefined) === null ? 'fees' : 'shop_costs';
    }
  }
}

/** The covered entries of one payout summed by type (as SQL groups them). */
export interface PayoutTypeSum extends PayoutEntryShape {
  readonly entries: number;
  readonly sumMinor: number;
}

export interface PayoutLineSum {
  readonly line: PayoutLine;
  readonly entries: number;
  readonly sumMinor: number;
}

export interface PayoutReconciliation {
  readonly lines: PayoutLineSum[];
  /** What we expect Etsy to pay: the balance carried from the previous deposit plus every covered entry. */
  readonly ourSumMinor: number;
  /** What Etsy paid (the deposit's amount, as a positive number). */
  readonly paidMinor: number;
  /** ourSum − paid − what Etsy says stayed in the account after the deposit: 0 when it reconciles. */
  readonly differenceMinor: number;
}

function whole(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new MoneyError(`${what} is not a whole number of minor units`);
  return value;
}

/**
 * One deposit reconciled (docs/adr/0027): the entries since the previous deposit summed by
 * line, our sum (opening balance + those entries) against Etsy's amount and the balance it
 * reports after the deposit. `openingMinor` is Etsy's balance after the previous deposit (for
 * the first one, before its first covered entry); `depositMinor` the DISBURSE2 entry's signed
 * amount (a debit, negative); `balanceAfterMinor` that entry's `balance`.
 */
export function reconcilePayout(input: {
  readonly openingMinor: number;
  readonly depositMinor: number;
  readonly balanceAfterMinor: number;
  readonly sums: readonly PayoutTypeSum[];
}): PayoutReconciliation {
  const byLine = new Map<PayoutLine, { entries: number; sumMinor: number }>();
  let covered = 0;
  for (const sum of input.sums) {
    const line = payoutLineOf(sum);
    const group = byLine.get(line) ?? { entries: 0, sumMinor: 0 };
    group.entries += sum.entries;
    group.sumMinor += whole(sum.sumMinor, `the ${sum.ledgerType} sum`);
    byLine.set(line, group);
    covered += sum.sumMinor;
  }
  const ourSumMinor = whole(input.openingMinor, 'the opening balance') + covered;
  const paidMinor = -whole(input.depositMinor, 'the deposit');
  return {
    lines: PAYOUT_LINES.filter((line) => byLine.has(line)).map((line) => ({ line, ...byLine.get(line)! })),
    ourSumMinor,
    paidMinor,
    differenceMinor: ourSumMinor - paidMinor - whole(input.balanceAfterMinor, 'the balance after the deposit'),
  };
}

/**
 * Money not paid out yet (docs/adr/0027): the entries since the last deposit reconciled as a
 * deposit of nothing: the balance after it (`openingMinor`) plus every entry since must be what
 * Etsy says the account holds now (the newest entry's `balance`, `balanceNowMinor`).
 */
export function reconcileUnpaid(input: {
  readonly openingMinor: number;
  readonly balanceNowMinor: number;
  readonly sums: readonly PayoutTypeSum[];
}): Omit<PayoutReconciliation, 'paidMinor'> {
  const { lines, ourSumMinor, differenceMinor } = reconcilePayout({
    openingMinor: input.openingMinor,
    depositMinor: 0,
    balanceAfterMinor: input.balanceNowMinor,
    sums: input.sums,
  });
  return { lines, ourSumMinor, differenceMinor };
}
