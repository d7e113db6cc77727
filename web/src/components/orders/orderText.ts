// Texts of the order screens that the spec fixes (§2, §8) or that tests name.
import type { AttachmentReason, OrderRowView } from '@pod/contracts';
import { hasErrorCode, SERVICE_BUSY_TEXT } from '../../hooks/api/client';

export const ORDER_MSG = {
  unknownProduct: 'Unknown Product',
  unknownCustomer: 'Unknown',
  noDate: 'No date',
  matchCompleted: 'Order matching completed',
  matchCompletedSuccessfully: 'Order matching completed successfully',
  matchFailed: 'Failed to match orders',
  matching: 'Matching...',
  matchProgressUnknown:
    'The progress of order matching could not be read. Reload the page to see whether it has finished.',
  manualMatched: 'Orders matched',
  manualMatchFailed: 'The orders could not be matched. Please try again.',
  unmatched: 'Orders unmatched',
  unmatchFailed: 'The order could not be unmatched. Please try again.',
  archived: 'Order archived',
  archiveFailed: 'The order could not be archived. Please try again.',
  restored: 'Order restored',
  restoreFailed: 'The order could not be restored. Please try again.',
} as const;

/**
 * What a failed load says, by the error's `code` (never its wording). A 401 is not here: the
 * app forgets the session and shows the sign-in side.
 */
export function loadErrorText(error: unknown): string {
  if (hasErrorCode(error, 'not_found')) return 'This order is no longer there. It may have been deleted by a sync.';
  if (hasErrorCode(error, 'validation_failed', 'bad_request'))
    return error.serverMessage ?? 'These filters could not be applied. Please reset them and try again.';
  if (hasErrorCode(error, 'too_many_attempts', 'too_many_requests'))
    return 'Too many requests in a short time. Please wait a moment and try again.';
  // The page asks again by itself after a busy answer (serviceBusyRetry): say that, not "try again".
  if (hasErrorCode(error, 'service_busy')) return `${SERVICE_BUSY_TEXT}: the orders load as soon as it answers.`;
  if (hasErrorCode(error, 'service_unavailable')) return 'The service is busy right now. Please try again shortly.';
  return 'Something went wrong while loading. Please try again.';
}

/**
 * A change (match, archive…) refused: the server's reason when it is the seller's to fix or to
 * wait out (a match run holds the orders; too many requests at once), else the fallback.
 */
export function changeErrorText(error: unknown, fallback: string): string {
  if (
    hasErrorCode(
      error,
      'conflict',
      'validation_failed',
      'not_found',
      'bad_request',
      'matching_in_progress',
      'too_many_requests',
    )
  )
    return error.serverMessage ?? fallback;
  return fallback;
}

const EXTRA_WORD: Record<AttachmentReason, [string, string]> = {
  reprint: ['reprint', 'reprints'],
  split: ['split order', 'split orders'],
  manual: ['added', 'added'],
};

/**
 * How many more Printify orders the receipt has, by why (issue 17): "+1 reprint",
 * "+2 split orders, +1 added"; null when it has only its own.
 */
export function extraPrintifyText(order: Pick<OrderRowView, 'extraPrintifyOrders'>): string | null {
  const counts = new Map<AttachmentReason, number>();
  for (const extra of order.extraPrintifyOrders ?? []) counts.set(extra.reason, (counts.get(extra.reason) ?? 0) + 1);
  if (counts.size === 0) return null;
  return (['reprint', 'split', 'manual'] as const)
    .filter((reason) => counts.has(reason))
    .map((reason) => {
      const n = counts.get(reason) ?? 0;
      return `+${n} ${EXTRA_WORD[reason][n === 1 ? 0 : 1]}`;
    })
    .join(', ');
}
