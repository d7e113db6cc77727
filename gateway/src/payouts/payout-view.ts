import type { PayoutExplanationView, PayoutLineView, PayoutView } from '@pod/contracts';
import type { PayoutEntryRow, PayoutRow } from '@pod/db';
import { formatMinorUnits, PAYOUT_LINE_LABELS, PAYOUT_LINES, payoutLineOf, reconcilePayout } from '@pod/domain';

/** Why our running sum and Etsy's balance part at an entry: a skipped sequence number, a balance that is not the previous one plus the amount. */
function explanationsOf(row: PayoutRow): PayoutExplanationView[] {
  const explanations: PayoutExplanationView[] = [];
  const deposit: PayoutEntryRow = {
    entryId: row.entryId,
    ledgerType: 'DISBURSE2',
    parentLedgerType: null,
    linkedToOrder: false,
    receiptId: null,
    createdAt: row.createdAt,
    amountMinor: row.amountMinor,
    balanceMinor: row.balanceAfterMinor,
    sequenceNumber: null,
    balanceBreakMinor: row.depositBreakMinor,
    missingBefore: 0,
  };
  for (const entry of [...row.entries, deposit]) {
    const at = { entryId: entry.entryId, date: entry.createdAt, ledgerType: entry.ledgerType };
    if (entry.missingBefore > 0) {
      explanations.push({
        ...at,
        kind: 'sequence_gap',
        message: `${entry.missingBefore} ledger ${entry.missingBefore === 1 ? 'entry is' : 'entries are'} missing just before this one (its sequence number skips ${entry.missingBefore}): not synced yet, or a page was missed.`,
      });
    }
    if (entry.balanceBreakMinor !== null && entry.balanceBreakMinor !== 0) {
      const gap = formatMinorUnits(entry.balanceBreakMinor, row.currency);
      explanations.push({
        ...at,
        kind: 'balance_mismatch',
        message: `Etsy’s balance after this entry differs by ${gap} from the previous balance plus its amount.`,
      });
    }
  }
  if (row.openingMinor === null || row.balanceAfterMinor === null) {
    explanations.push({
      entryId: row.entryId,
      date: row.createdAt,
      ledgerType: 'DISBURSE2',
      kind: 'no_balance',
      message: 'The ledger gave no running balance here, so this deposit cannot be checked to the cent.',
    });
  }
  return explanations;
}

export function payoutView(row: PayoutRow): PayoutView {
  const view = (minor: number) => ({ minor, currency: row.currency });
  const itemsByLine = new Map<string, PayoutLineView['items']>();
  for (const entry of row.entries) {
    const line = payoutLineOf(entry);
    const items = itemsByLine.get(line) ?? [];
    items.push({
      entryId: entry.entryId,
      date: entry.createdAt,
      ledgerType: entry.ledgerType,
      amount: view(entry.amountMinor),
      balance: entry.balanceMinor === null ? null : view(entry.balanceMinor),
      receiptId: entry.receiptId,
    });
    itemsByLine.set(line, items);
  }
  const checkable = row.openingMinor !== null && row.balanceAfterMinor !== null;
  const reconciled = reconcilePayout({
    openingMinor: row.openingMinor ?? 0,
    depositMinor: row.amountMinor,
    balanceAfterMinor: row.balanceAfterMinor ?? 0,
    sums: row.sums,
  });
  const lines = [...reconciled.lines].sort((a, b) => PAYOUT_LINES.indexOf(a.line) - PAYOUT_LINES.indexOf(b.line));
  return {
    id: `${row.shopId}:${row.entryId}`,
    date: row.createdAt,
    amount: view(reconciled.paidMinor),
    openingBalance: row.openingMinor === null ? null : view(row.openingMinor),
    lines: lines.map((line) => ({
      line: line.line,
      label: PAYOUT_LINE_LABELS[line.line],
      entries: line.entries,
      sum: view(line.sumMinor),
      items: itemsByLine.get(line.line) ?? [],
    })),
    ourSum: checkable ? view(reconciled.ourSumMinor) : null,
    leftInAccount: row.balanceAfterMinor === null ? null : view(row.balanceAfterMinor),
    difference: checkable ? view(reconciled.differenceMinor) : null,
    reconciled: checkable ? reconciled.differenceMinor === 0 : null,
    explanations: explanationsOf(row),
  };
}
