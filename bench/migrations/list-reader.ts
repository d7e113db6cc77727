import type { DataSource } from 'typeorm';
import { OrderViewsRepository, type OrderListFilter } from '@pod/db';

/** One Orders page load: when it started and ended (performance.now()), and its error if it failed. */
export interface ListRead {
  startedAt: number;
  endedAt: number;
  error?: string;
}

const FIRST_PAGE: OrderListFilter = { search: null, status: null, since: null, source: 'all', archived: false };
const PAGE_SIZE = 50;

/**
 * Loads one seller's Orders page (the route's counts, then page 1 newest first, each in its own
 * tenant-scoped transaction as the app role) back to back until stopped, one read at a time, as
 * a user refreshing the page would: a read that waits for a migration's lock shows as a long one.
 */
export function startListReader(dataSource: DataSource, userId: string): { stop(): Promise<ListRead[]> } {
  const views = new OrderViewsRepository(dataSource);
  const reads: ListRead[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const startedAt = performance.now();
      try {
        await views.listCounts(userId, FIRST_PAGE);
        await views.listPage(userId, 'USD', FIRST_PAGE, PAGE_SIZE, 0);
        reads.push({ startedAt, endedAt: performance.now() });
      } catch (error) {
        reads.push({ startedAt, endedAt: performance.now(), error: String(error) });
      }
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return reads;
    },
  };
}

/** The reads that overlapped [from, to] (a read waiting on a lock taken inside counts whole). */
export function readsDuring(reads: readonly ListRead[], from: number, to: number): ListRead[] {
  return reads.filter((read) => read.endedAt >= from && read.startedAt <= to);
}
