import { useEffect, useMemo } from 'react';
import useSWR, { mutate, useSWRConfig } from 'swr';
import { isActiveSyncRunStatus, PROVIDERS } from '@pod/contracts';
import type { SyncRunView, SyncStartResponse, SyncStatusResponse } from '@pod/contracts';
import { apiRequest } from './client';
import { API, API_PREFIX } from './keys';
import { mutateByPrefix, resetByPrefix } from './mutateByPrefix';

/** How often the page asks for progress while the figures settle (the answer is read from PostgreSQL, and one Redis lookup). */
export const SYNC_POLL_MS = 2_000;

const pollWhileSettling = (latest: SyncStatusResponse | undefined) => (latest?.settling ? SYNC_POLL_MS : 0);

/** The last status answer compared (by any page or hook using it), so a change revalidates the order answers once. */
let lastSeen: SyncStatusResponse | undefined;

/** A run that was active has ended: it settled, or a newer run replaced it as the latest. */
function ended(before: SyncRunView | null, now: SyncRunView | null): boolean {
  if (!before || !isActiveSyncRunStatus(before.status)) return false;
  return !now || now.id !== before.id || !isActiveSyncRunStatus(now.status);
}

/**
 * GET /api/sync/status: the latest run per provider, and whether the figures are settling. Polled
 * only while they settle — a sync active, or the match and profit runs after it (`refreshInterval`
 * answers 0 otherwise, the spec's "no automatic refetch"); asked again whenever a page using it
 * opens, since a scheduled sync may have started or ended meanwhile. When a run ends, and again
 * once everything has settled (the profit run after the last match put Etsy's fees in), every
 * connections and order answer is revalidated.
 */
export function useSyncStatus(enabled = true) {
  const key = enabled ? API.syncStatus : null;
  const { cache } = useSWRConfig();
  const cachedSettling = key ? (cache.get(key)?.data as SyncStatusResponse | undefined)?.settling === true : false;
  // SWR arms its polling timer on mount and whenever `refreshInterval` changes identity, and stops
  // for good once the function answers 0. A new function per settled/settling phase re-arms it
  // when a run starts (after Sync All or Match Orders, or one a refetch finds).
  const refreshInterval = useMemo(
    () => (cachedSettling ? (latest?: SyncStatusResponse) => pollWhileSettling(latest) : pollWhileSettling),
    [cachedSettling],
  );
  const {
    data,
    error,
    isLoading,
    mutate: reload,
  } = useSWR<SyncStatusResponse>(key, { refreshInterval, revalidateOnMount: true });

  useEffect(() => {
    // Every user of the status shares one answer: the first to see it compares it with the last one seen.
    if (data === lastSeen) return;
    const before = lastSeen;
    lastSeen = data;
    const settled = before?.settling === true && data?.settling === false;
    if (before && data && (settled || PROVIDERS.some((provider) => ended(before[provider], data[provider])))) {
      // Its `lastSync` moved, and its orders changed the order lists and the dashboard's figures.
      void mutateByPrefix(API_PREFIX.connections);
      void resetByPrefix(...API_PREFIX.orderData);
    }
  }, [data]);

  return { syncStatus: data, error: error as Error | undefined, isLoading, reload };
}

/**
 * Whether the figures on screen may still change (GET /api/sync/status `settling`), for the
 * order answers to poll meanwhile. Reading it follows the status (and polls it) on that page too.
 */
export function useFiguresSettling(): boolean {
  return useSyncStatus().syncStatus?.settling === true;
}

/** Asks the status again (after a start: the new run shows, and polling begins). */
export function refreshSyncStatus() {
  return mutate(API.syncStatus);
}

/** POST /api/sync/etsy: 202 with the queued (or already active) run. */
export async function startEtsySync() {
  const result = await apiRequest<SyncStartResponse>('POST', API.syncStart('etsy'));
  await refreshSyncStatus();
  return result;
}

/** POST /api/sync/printify with `{}`: the shop of the connection (chosen on the Connections page). */
export async function startPrintifySync() {
  const result = await apiRequest<SyncStartResponse>('POST', API.syncStart('printify'), {});
  await refreshSyncStatus();
  return result;
}
