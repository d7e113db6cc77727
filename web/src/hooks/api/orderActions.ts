import type { ManualMatchRequest, MatchStartResponse, OrderChangeResponse } from '@pod/contracts';
import { apiRequest } from './client';
import { API_PREFIX } from './keys';
import { ORDER_API as API } from './orderKeys';
import { resetByPrefix } from './mutateByPrefix';

// The order screens' changes. Each one moves orders between lists and changes the dashboard's
// counts, so every order answer on screen is asked again afterwards.

const refreshOrderData = () => resetByPrefix(...API_PREFIX.orderData);

async function changeOrders<T>(call: Promise<T>): Promise<T> {
  const result = await call;
  await refreshOrderData();
  return result;
}

/**
 * POST /api/orders/match: queues automatic matching over the account's orders (202 with the
 * run). Nothing has changed yet: `useMatchRun` follows the run and refreshes the orders when it
 * has succeeded.
 */
export function queueMatchRun() {
  return apiRequest<MatchStartResponse>('POST', API.matchAll);
}

/** POST /api/orders/:id/match {withOrderId}: pair two orders by hand. */
export function matchOrderManually(id: string, withOrderId: string) {
  const body: ManualMatchRequest = { withOrderId };
  return changeOrders(apiRequest<OrderChangeResponse>('POST', API.orderAction(id, 'match'), body));
}

/** POST /api/orders/:id/remove-printify-order {printifyOrderId}: take one Printify order off the receipt (issue 17). */
export function removePrintifyOrder(id: string, printifyOrderId: string) {
  return changeOrders(
    apiRequest<OrderChangeResponse>('POST', API.orderAction(id, 'remove-printify-order'), { printifyOrderId }),
  );
}

export function unmatchOrder(id: string) {
  return changeOrders(apiRequest<OrderChangeResponse>('POST', API.orderAction(id, 'unmatch')));
}

export function archiveOrder(id: string) {
  return changeOrders(apiRequest<OrderChangeResponse>('POST', API.orderAction(id, 'archive')));
}

export function restoreOrder(id: string) {
  return changeOrders(apiRequest<OrderChangeResponse>('POST', API.orderAction(id, 'restore')));
}
