import type { SyncRunView } from '@pod/contracts';
import type { SyncRun } from '@pod/db';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A run as the web app sees it: counters, the progress estimate, a user-safe error. */
export function toSyncRunView(run: SyncRun): SyncRunView {
  const percent =
    run.status === 'succeeded'
      ? 100
      : run.expectedPages
        ? Math.min(99, Math.floor((run.pagesDone / run.expectedPages) * 100))
        : null;
  return {
    id: run.id,
    provider: run.provider,
    shopId: run.shopId,
    status: run.status,
    trigger: run.trigger,
    stream: run.stream,
    pagesDone: run.pagesDone,
    ordersDone: run.ordersAdded + run.ordersChanged,
    ordersAdded: run.ordersAdded,
    ordersChanged: run.ordersChanged,
    percent,
    resumeAt: iso(run.resumeAt),
    errorCode: run.errorCode,
    errorMessage: run.errorMessage,
    createdAt: run.createdAt.toISOString(),
    startedAt: iso(run.startedAt),
    finishedAt: iso(run.finishedAt),
  };
}
