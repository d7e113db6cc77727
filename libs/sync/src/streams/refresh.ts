import { EVENT_NAMES, type EventPayloads, type Provider } from '@pod/contracts';
import type { UpsertCounts } from '@pod/db';
import type { RefreshResult } from '@pod/queue';

export interface RefreshAnnouncer {
  publish<N extends keyof EventPayloads>(name: N, payload: EventPayloads[N]): Promise<unknown>;
  /** The sync worker's MATCH_QUEUER: queues the user's match run itself (ADR 0037). */
  queueMatch(userId: string): Promise<unknown>;
}

/**
 * What a webhook-driven refresh of one record did: when it added or changed the order, the
 * user's match run is queued and `orders.synced` (no run) announced, as after a sync run.
 */
export async function settleRefresh(
  events: RefreshAnnouncer,
  scope: { userId: string; provider: Provider; shopId: string },
  counts: UpsertCounts,
  fetchedAt: Date,
): Promise<RefreshResult> {
  const outcome = counts.added > 0 ? 'added' : counts.changed > 0 ? 'changed' : 'unchanged';
  if (outcome !== 'unchanged') {
    // Not failing the refresh: its rows are committed, and a retry would find nothing changed to
    // announce. The event below still reaches the gateway's listener, which queues the same run.
    await events.queueMatch(scope.userId).catch(() => undefined);
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
