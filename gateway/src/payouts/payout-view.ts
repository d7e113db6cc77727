import type { MoneyView, PayoutExplanationView, PayoutLineView, PayoutView, UnpaidView } from '@pod/contracts';
import type { PayoutEntryRow, PayoutRow, UnpaidRow } from '@pod/db';
import {
  type CurrencyCode,
  formatMinorUnits,
  PAYOUT_LINE_LABELS,
  PAYOUT_LINES,
  type PayoutLineSum,
  payoutLineOf,
  reconcilePayout,
  reconcileUnpaid,
} from '@pod/domain';

/** Why our running sum and Etsy's balance part at an entry: a skipped sequence number, a balance that is not the previous one plus the amount. */
function entryExplanations(entries: readonly PayoutEntryRow[], currency: CurrencyCode): PayoutExplanationView[] {
  const explanations: PayoutExplanationView[] = [];
  for (const entry of entries) {
    const at = { entryId: entry.entryId, date: entry.createdAt, ledgerType: entry.ledgerType };
    if (entry.missingBefore > 0) {
      explanations.push({
        ...at,
        kind: 'sequence_gap',
        message: `${entry.missingBefore} ledger ${entry.missingBefore === 1 ? 'entry is' : 'entries are'} missing just before this one (its sequence number skips ${entry.missingBefore}): not synced yet, or a page was missed.`,
      });
    }
    if (entry.balanceBreakMinor !== null && entry.balanceBreakMinor !== 0) {
      const gap = formatMinorUnits(entry.balanceBreakMinor, currency);
      explanations.push({
        ...at,
        kind: 'balance_mismatch',
        message: `Etsy’s balance after this entry differs by ${gap} from the previous balance plus its amount.`,
      });
    }
  }
  return explanations;
}

function explanationsOf(row: PayoutRow): PayoutExplanationView[] {
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
  const explanations = entryExplanations([...row.entries, deposit], row.currency);
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

/** The reconciled lines in the page's order, each with its entries to open. */
function lineViews(
  lines: readonly PayoutLineSum[],
  entries: readonly PayoutEntryRow[],
  view: (minor: number) => MoneyView,
): PayoutLineView[] {
  const itemsByLine = new Map<string, PayoutLineView['items']>();
  for (const entry of entries) {
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
  return [...lines]
    .sort((a, b) => PAYOUT_LINES.indexOf(a.line) - PAYOUT_LINES.indexOf(b.line))
    .map((line) => ({
      line: line.line,
      label: PAYOUT_LINE_LABELS[line.line],
      entries: line.entries,
      sum: view(line.sumMinor),
      items: itemsByLine.get(line.line) ?? [],
    }));
}

/** A deposit reconciled; its display-currency figure is the service's (it needs rates). */
export function payoutView(row: PayoutRow): Omit<PayoutView, 'displayAmount'> {
  const view = (minor: number) => ({ minor, currency: row.currency });
  const checkable = row.openingMinor !== null && row.balanceAfterMinor !== null;
  const reconciled = reconcilePayout({
    openingMinor: row.openingMinor ?? 0,
    depositMinor: row.amountMinor,
    balanceAfterMinor: row.balanceAfterMinor ?? 0,
    sums: row.sums,
  });
  return {
    id: `${row.shopId}:${row.entryId}`,
    date: row.createdAt,
    amount: view(reconciled.paidMinor),
    openingBalance: row.openingMinor === null ? null : view(row.openingMinor),
    lines: lineViews(reconciled.lines, row.entries, view),
    ourSum: checkable ? view(reconciled.ourSumMinor) : null,
    leftInAccount: row.balanceAfterMinor === null ? null : view(row.balanceAfterMinor),
    difference: checkable ? view(reconciled.differenceMinor) : null,
    reconciled: checkable ? reconciled.differenceMinor === 0 : null,
    explanations: explanationsOf(row),
  };
}

/** A shop's money not paid out yet, reconciled (null figures when the ledger gave no balance or the shop has no entries). */
export function unpaidView(row: UnpaidRow): UnpaidView {
  const currency = row.currency;
  const view = (minor: number) => ({ minor, currency: currency! });
  const checkable = currency !== null && row.openingMinor !== null && row.balanceNowMinor !== null;
  const reconciled = reconcileUnpaid({
    openingMinor: row.openingMinor ?? 0,
    balanceNowMinor: row.balanceNowMinor ?? 0,
    sums: row.sums,
  });
  const explanations = currency === null ? [] : entryExplanations(row.entries, currency);
  if (!checkable && row.entries.length > 0) {
    const newest = row.entries[row.entries.length - 1];
    explanations.push({
      entryId: newest.entryId,
      date: newest.createdAt,
      ledgerType: newest.ledgerType,
      kind: 'no_balance',
      message: 'The ledger gave no running balance here, so what is not paid out yet cannot be checked to the cent.',
    });
  }
  return {
    shopId: row.shopId,
    sinceDeposit: row.sinceDepositAt,
    openingBalance: currency === null || row.openingMinor === null ? null : view(row.openingMinor),
    lines: currency === null ? [] : lineViews(reconciled.lines, row.entries, view),
    ourSum: checkable ? view(reconciled.ourSumMinor) : null,
    balanceNow: currency === null || row.balanceNowMinor === null ? null : view(row.balanceNowMinor),
    difference: checkable ? view(reconciled.differenceMinor) : null,
    reconciled: checkable ? reconciled.differenceMinor === 0 : null,
    explanations,
  };
}
