import { useEffect, useMemo, useRef } from 'react';
import useSWR, { mutate, useSWRConfig } from 'swr';
import { isActiveSyncRunStatus, PROVIDERS } from '@pod/contracts';
import type { PrintifyShopView, SyncRunView, SyncStartResponse, SyncStatusResponse } from '@pod/contracts';
import { apiRequest, fetcher } from './client';
import { API, API_PREFIX } from './keys';
import { mutateByPrefix, resetByPrefix } from './mutateByPrefix';

/** How often the page asks for progress while a run is active (the answer is read from PostgreSQL only). */
export const SYNC_POLL_MS = 2_000;

const pollWhileActive = (latest: SyncStatusResponse | undefined) => (latest?.active ? SYNC_POLL_MS : 0);

/** A run that was active has ended: it settled, or a newer run replaced it as the latest. */
function ended(before: SyncRunView | null, now: SyncRunView | null): boolean {
  if (!before || !isActiveSyncRunStatus(before.status)) return false;
  return !now || now.id !== before.id || !isActiveSyncRunStatus(now.status);
}

/**
 * GET /api/sync/status: the latest run per provider. Polled only while a run is active
 * (`refreshInterval` answers 0 otherwise); asked again whenever a page using it opens, since a
 * scheduled sync may have started or ended meanwhile. When a run ends, every connections and
 * order answer is revalidated.
 */
export function useSyncStatus(enabled = true) {
  const key = enabled ? API.syncStatus : null;
  const { cache } = useSWRConfig();
  const cachedActive = key ? (cache.get(key)?.data as SyncStatusResponse | undefined)?.active === true : false;
  // SWR arms its polling timer on mount and whenever `refreshInterval` changes identity, and stops
  // for good once the function answers 0. A new function per idle/active phase re-arms it when a
  // run starts (after Sync All, or one a refetch finds).
  const refreshInterval = useMemo(
    () => (cachedActive ? (latest?: SyncStatusResponse) => pollWhileActive(latest) : pollWhileActive),
    [cachedActive],
  );
  const {
    data,
    error,
    isLoading,
    mutate: reload,
  } = useSWR<SyncStatusResponse>(key, { refreshInterval, revalidateOnMount: true });

  const previous = useRef<SyncStatusResponse | undefined>(undefined);
  useEffect(() => {
    const before = previous.current;
    previous.current = data;
    if (before && data && PROVIDERS.some((provider) => ended(before[provider], data[provider]))) {
      // Its `lastSync` moved, and its orders changed the order lists and the dashboard's figures.
      void mutateByPrefix(API_PREFIX.connections);
      void resetByPrefix(...API_PREFIX.orderData);
    }
  }, [data]);

  return { syncStatus: data, error: error as Error | undefined, isLoading, reload };
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

/** POST /api/sync/printify with the chosen shop, or `{}` for the connected one. */
export async function startPrintifySync(shopId?: string) {
  const result = await apiRequest<SyncStartResponse>(
    'POST',
    API.syncStart('printify'),
    shopId === undefined ? {} : { shopId },
  );
  await refreshSyncStatus();
  return result;
}

/** GET /api/printify/shops: the shops of the connected Printify account (asked of Printify live). */
export function fetchPrintifyShops() {
  return fetcher<PrintifyShopView[]>(API.printifyShops);
}
