import type { SyncMode } from '@pod/contracts';

/**
 * How far back each pass re-reads, so a record changed while the previous pass ran, or stamped
 * by a provider clock a little behind ours, is never missed. Incremental passes keep it short
 * (a re-sync of an unchanged shop is one or two requests a stream); the nightly pass re-reads
 * longer windows of what may still change (Printify statuses and costs, back-dated ledger entries).
 */
export interface SyncLookbacks {
  /** Etsy receipts: min_last_modified = last pass's start − this. */
  etsyReceiptsSeconds: Record<SyncMode, number>;
  /** Etsy ledger: the next pass starts this long before the last one ended. */
  etsyLedgerSeconds: Record<SyncMode, number>;
  /** Printify orders (newest first, no date filter): paging stops at orders older than the newest seen − this. */
  printifyOrdersSeconds: Record<SyncMode, number>;
}

const MINUTE = 60;
const DAY = 86_400;

export const DEFAULT_LOOKBACKS: SyncLookbacks = {
  etsyReceiptsSeconds: { incremental: 10 * MINUTE, nightly: 2 * DAY },
  etsyLedgerSeconds: { incremental: 10 * MINUTE, nightly: 7 * DAY },
  printifyOrdersSeconds: { incremental: 10 * MINUTE, nightly: 14 * DAY },
};

/** Etsy refuses timestamps before 2000-01-01 (946684800). */
export const ETSY_EARLIEST_TIMESTAMP = 946_684_800;

export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
