import { EVENT_NAMES, type EventPayloads, type Provider } from '@pod/contracts';
import type { UpsertCounts } from '@pod/db';
import type { RefreshResult } from '@pod/queue';

export interface RefreshAnnouncer {
  publish<N extends keyof EventPayloads>(name: N, payload: EventPayloads[N]): Promise<unknown>;
}

/**
 * What a webhook-driven refresh of one record did, announced (`orders.synced`, no run) when it
 * added or changed the order, so the matcher reacts as it does after a sync run.
 */
export async function settleRefresh(
  events: RefreshAnnouncer,
  scope: { userId: string; provider: Provider; shopId: string },
  counts: UpsertCounts,
  fetchedAt: Date,
): Promise<RefreshResult> {
  const outcome = counts.added > 0 ? 'added' : counts.changed > 0 ? 'changed' : 'unchanged';
  if (outcome !== 'unchanged') {
    await events.publish(EVENT_NAMES.ordersSynced, {
      ...scope,
      syncRunId: null,
      ordersAdded: counts.added,
      ordersChanged: counts.changed,
      syncedAt: fetchedAt.toISOString(),
    });
  }
  return { outcome };
}
