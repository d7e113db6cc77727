import { useEffect, useRef } from 'react';
import useSWR from 'swr';
import type { AnalyticsResponse } from '@pod/contracts';
import type { DisplayCurrencyCode, ReportWindowDays } from '@pod/domain';
import { FIGURES_POLL_MS } from './figuresPolling';
import { ANALYTICS_PATH } from './analyticsPath';
import { withQuery } from './orderKeys';
import { useFiguresSettling } from './useSyncStatus';

/** GET /api/analytics for a range and the display currency; polls while the figures settle, like the Dashboard. */
export function useAnalytics(days: ReportWindowDays, currency: DisplayCurrencyCode) {
  const settling = useFiguresSettling();
  const { data, error, isLoading, mutate } = useSWR<AnalyticsResponse>(withQuery(ANALYTICS_PATH, { days, currency }), {
    keepPreviousData: true,
    refreshInterval: settling ? FIGURES_POLL_MS : 0,
  });
  // Once the figures settle, ask once more: the last poll may have come before the last change.
  // (The order screens get this from resetByPrefix of keys.ts's prefixes, which leave this path out.)
  const wasSettling = useRef(settling);
  useEffect(() => {
    if (wasSettling.current && !settling) void mutate();
    wasSettling.current = settling;
  }, [settling, mutate]);
  return { analytics: data, error: error as Error | undefined, isLoading, reload: mutate };
}
