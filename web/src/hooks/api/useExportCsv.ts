import { useCallback, useRef, useState } from 'react';
import { toaster } from '../../components/ui/toaster';
import { ApiError, hasErrorCode } from './client';
import { withQuery } from './orderKeys';
import type { OrdersQuery } from './useOrders';

// The CSV export (GET /api/orders/export), for the Orders page (its current filters) and the
// Settings page's Data Management (every order, no filters). The file is fetched rather than
// linked so that a refusal (an export already running, a signed-out session) shows as a toast
// instead of a downloaded error page; it is then handed to the browser as a download.

const EXPORT_PATH = '/api/orders/export';

const EXPORT_MSG = {
  failed: 'Failed to export orders',
  running: 'An export of your orders is already running. Try again when it has finished.',
} as const;

/** The Orders list's filters, sort and currency: what the export takes (no page). */
export type OrdersExportFilters = Omit<OrdersQuery, 'page' | 'pageSize'>;

/** The export's URL for these filters; without any, every active order in the user's currency. */
function ordersExportUrl(filters?: OrdersExportFilters): string {
  if (!filters) return EXPORT_PATH;
  return withQuery(EXPORT_PATH, {
    search: filters.search.trim() || undefined,
    status: filters.status === 'all' ? undefined : filters.status,
    days: filters.days,
    source: filters.source === 'all' ? undefined : filters.source,
    view: filters.view === 'active' ? undefined : filters.view,
    sort: filters.sort?.key,
    dir: filters.sort?.dir,
    currency: filters.currency,
  });
}

/** The file name the server gave (Content-Disposition), else a dated default. */
function fileNameOf(response: Response): string {
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return named?.[1] ?? `podprofit-orders-${new Date().toISOString().slice(0, 10)}.csv`;
}

function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file by the next task; the blob's memory goes back after.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the orders as CSV; `exporting` while it runs; a failure shows the error toast. */
export function useExportCsv() {
  const [exporting, setExporting] = useState(false);
  const running = useRef(false);
  const exportCsv = useCallback(async (filters?: OrdersExportFilters) => {
    if (running.current) return;
    running.current = true;
    setExporting(true);
    try {
      const response = await fetch(ordersExportUrl(filters), {
        credentials: 'include',
        headers: { Accept: 'text/csv' },
      });
      if (!response.ok)
        throw new ApiError(
          response.status,
          response.statusText,
          await response.text().catch(() => ''),
          response.headers.get('retry-after'),
        );
      saveFile(await response.blob(), fileNameOf(response));
    } catch (caught) {
      toaster.error(hasErrorCode(caught, 'export_in_progress') ? EXPORT_MSG.running : EXPORT_MSG.failed);
    } finally {
      running.current = false;
      setExporting(false);
    }
  }, []);
  return { exportCsv, exporting };
}
