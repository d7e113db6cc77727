import type { EtsyLedgerEntry } from '@pod/integrations';

/**
 * Which payments a page of ledger entries makes the ledger stream fetch (integrations.md §a.6,
 * §a.7), in two lists by how they are asked for:
 * - `byEntry` (getPaymentAccountLedgerEntryPayments, by ledger entry id): a sale (PAYMENT_GROSS)
 *   whose payment is not stored yet; and a refund entry (`reference_type` `payment_adjustment`)
 *   carrying no `payment_adjustments`, as real entries may (etsy/open-api #302): the payment behind
 *   it lists the adjustment, which links the entry to its receipt and gives the fees after it.
 * - `byPaymentId` (getPayments): the payments a refund entry's own adjustments name, fetched
 *   again because the refund changed their adjusted amounts.
 */
export function paymentsBehindEntries(
  entries: readonly EtsyLedgerEntry[],
  storedPaymentIds: ReadonlySet<string>,
): { byEntry: string[]; byPaymentId: string[] } {
  const byEntry: string[] = [];
  const byPaymentId: string[] = [];
  for (const entry of entries) {
    if (isSale(entry) && entry.referenceId !== null && !storedPaymentIds.has(entry.referenceId))
      byEntry.push(entry.entryId);
    if (entry.paymentAdjustments.length > 0) {
      for (const adjustment of entry.paymentAdjustments)
        if (adjustment.paymentId !== null) byPaymentId.push(adjustment.paymentId);
    } else if (entry.referenceId !== null && entry.referenceType?.trim().toLowerCase() === 'payment_adjustment')
      byEntry.push(entry.entryId);
  }
  return { byEntry: [...new Set(byEntry)], byPaymentId: [...new Set(byPaymentId)] };
}

/** A sale's entry: its reference is the payment (`shop_payment`). */
export function isSale(entry: EtsyLedgerEntry): boolean {
  return entry.ledgerType.toLowerCase() === 'payment_gross';
}
