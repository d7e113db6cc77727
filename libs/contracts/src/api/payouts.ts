import type { MoneyView } from './orders';

/** One Etsy ledger entry a payout covers (amounts in the ledger's currency). */
export interface PayoutEntryView {
  entryId: string;
  date: string;
  ledgerType: string;
  amount: MoneyView;
  /** Etsy's running balance after the entry; null when the ledger did not say. */
  balance: MoneyView | null;
  /** The Etsy receipt the entry is linked to, if any. */
  receiptId: string | null;
}

/** The entries of one line of a payout (sales, fees, refunds, shop costs, taxes, transfers, other). */
export interface PayoutLineView {
  line: 'sales' | 'fees' | 'refunds' | 'shop_costs' | 'taxes' | 'transfers' | 'other';
  label: string;
  entries: number;
  sum: MoneyView;
  items: PayoutEntryView[];
}

/** Why our running sum and Etsy's balance disagree at an entry. */
export interface PayoutExplanationView {
  entryId: string;
  date: string;
  ledgerType: string;
  kind: 'balance_mismatch' | 'sequence_gap' | 'no_balance';
  message: string;
}

/** One Etsy deposit (DISBURSE2) reconciled (docs/adr/0027). */
export interface PayoutView {
  id: string;
  date: string;
  /** What Etsy paid out (positive). */
  amount: MoneyView;
  /**
   * The amount in the display currency asked for (`currency=`), at the ECB rate of the deposit's
   * date (provisional at the latest published day's when that day is not loaded yet); null when
   * none was asked, it is the payment account's own currency, or no rate converts it yet.
   */
  displayAmount: { amount: MoneyView; provisional: boolean } | null;
  /** Etsy's balance after the previous deposit, carried into this one; null when unknown. */
  openingBalance: MoneyView | null;
  lines: PayoutLineView[];
  /** Opening balance + every covered entry; null when the ledger gave no balance to start from. */
  ourSum: MoneyView | null;
  /** What Etsy says stayed in the account after the deposit. */
  leftInAccount: MoneyView | null;
  /** ourSum − amount − leftInAccount: 0.00 when the deposit reconciles. */
  difference: MoneyView | null;
  reconciled: boolean | null;
  /** The entries that explain a difference (never hidden): balance mismatches and sequence gaps. */
  explanations: PayoutExplanationView[];
}

/**
 * Money not paid out yet in one shop's payment account: the entries since its last deposit,
 * reconciled as the deposits are (docs/adr/0027): Etsy's balance after the last deposit plus
 * every entry since must be the balance Etsy reports now.
 */
export interface UnpaidView {
  shopId: string;
  /** The last deposit's date; null when the shop has had none. */
  sinceDeposit: string | null;
  openingBalance: MoneyView | null;
  lines: PayoutLineView[];
  /** Opening balance + every entry since. */
  ourSum: MoneyView | null;
  /** What Etsy says the account holds now (its newest entry's balance). */
  balanceNow: MoneyView | null;
  /** ourSum − balanceNow: 0.00 when it reconciles. */
  difference: MoneyView | null;
  reconciled: boolean | null;
  explanations: PayoutExplanationView[];
}

/** GET /api/payouts: the user's Etsy deposits, newest first, and per shop what is not paid out yet. */
export interface PayoutsPageResponse {
  unpaid: UnpaidView[];
  payouts: PayoutView[];
  total: number;
  page: number;
  pageSize: number;
}
