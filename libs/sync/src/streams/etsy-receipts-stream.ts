import type { DataSource, EntityManager } from 'typeorm';
import { EtsyOrdersRepository, SyncQuarantineRepository } from '@pod/db';
import type { CallOptions, EtsyAuth, EtsyReceiptPage, EtsyReceiptQuery } from '@pod/integrations';
import type { FetchedPage, PageWriteResult, SyncStream, SyncStreamContext } from '../sync-stream';
import { etsyReceiptRow, partition, quarantinedFrom } from './rows';
import { epochSeconds, ETSY_EARLIEST_TIMESTAMP, type SyncLookbacks } from './windows';

export interface EtsyReceiptsApi {
  listReceipts(
    auth: EtsyAuth,
    shopId: string,
    query: EtsyReceiptQuery,
    options?: CallOptions,
  ): Promise<EtsyReceiptPage>;
}

export interface EtsyStreamDeps {
  auth: EtsyAuth;
  /** Reads outside the page's transaction (what is already stored); writes go through `write(tx)`. */
  dataSource: DataSource;
  lookbacks: SyncLookbacks;
  now: () => number;
}

/**
 * Where the receipts stream stands. A pass reads every receipt modified since
 * `sinceModified` (all of them on the first pass), sorted by creation time ascending: a receipt
 * changed while the pass runs stays in the result at its place (its creation time does not
 * move), and new receipts join at the end, so offsets never shift under the pass. Keyset
 * paging on the creation time (`afterCreated` + `skip` receipts created in that same second)
 * keeps every request far below Etsy's 12,000 offset cap.
 */
export interface EtsyReceiptsPosition {
  /** Epoch s: every receipt modified before it is stored. Null: never synced. */
  watermark: number | null;
  pass: {
    sinceModified: number | null;
    /** Epoch s when the pass began: the next watermark. */
    startedAt: number;
    afterCreated: number;
    skip: number;
    pagesDone: number;
  } | null;
}

export const ETSY_RECEIPTS_PAGE_SIZE = 100;

export function etsyReceiptsStream(api: EtsyReceiptsApi, deps: EtsyStreamDeps): SyncStream<EtsyReceiptsPosition> {
  return {
    name: 'etsy:receipts',
    initial: () => ({ watermark: null, pass: null }),
    begin(ctx: SyncStreamContext, stored: EtsyReceiptsPosition): EtsyReceiptsPosition {
      if (stored.pass) return stored;
      const sinceModified =
        stored.watermark === null ? null : stored.watermark - deps.lookbacks.etsyReceiptsSeconds[ctx.mode];
      return {
        watermark: stored.watermark,
        pass: {
          sinceModified,
          startedAt: epochSeconds(deps.now()),
          afterCreated: ETSY_EARLIEST_TIMESTAMP,
          skip: 0,
          pagesDone: 0,
        },
      };
    },
    async fetchPage(
      ctx: SyncStreamContext,
      position: EtsyReceiptsPosition,
    ): Promise<FetchedPage<EtsyReceiptsPosition>> {
      const pass = position.pass ?? fail('the receipts stream fetched without a pass');
      const fetchedAt = new Date(deps.now());
      const page = await api.listReceipts(
        deps.auth,
        ctx.shopId,
        {
          minLastModified:
            pass.sinceModified === null ? undefined : Math.max(ETSY_EARLIEST_TIMESTAMP, pass.sinceModified),
          minCreated: pass.afterCreated,
          sortOn: 'created',
          sortOrder: 'asc',
          limit: ETSY_RECEIPTS_PAGE_SIZE,
          offset: pass.skip,
        },
        { signal: ctx.signal },
      );
      const received = page.receipts.length + page.rejected.length;
      const done = received < ETSY_RECEIPTS_PAGE_SIZE;
      const next: EtsyReceiptsPosition = done
        ? { watermark: pass.startedAt, pass: null }
        : {
            watermark: position.watermark,
            pass: { ...pass, ...keysetAfter(page, pass), pagesDone: pass.pagesDone + 1 },
          };
      const remaining = Math.max(0, page.count - pass.skip - received);
      const outcomes = page.receipts.map((receipt, index) => etsyReceiptRow(receipt, page.payloads[index]));
      const { rows, quarantined } = partition(outcomes);
      quarantined.push(...quarantinedFrom(page.rejected));
      return {
        next,
        done,
        requests: 1,
        expectedPages: pass.pagesDone + 1 + Math.ceil(remaining / ETSY_RECEIPTS_PAGE_SIZE),
        async write(tx: EntityManager): Promise<PageWriteResult> {
          const orders = new EtsyOrdersRepository(tx);
          const counts = await orders.upsertReceipts(ctx.userId, ctx.shopId, rows, fetchedAt);
          const quarantine = new SyncQuarantineRepository(tx);
          const scope = { userId: ctx.userId, provider: 'etsy' as const, shopId: ctx.shopId, stream: 'etsy:receipts' };
          await quarantine.record(scope, quarantined);
          await quarantine.release(
            scope,
            rows.map((row) => row.receiptId),
          );
          // Ledger entries that arrived before their receipt's lines can be linked now.
          if (counts.added > 0) await orders.linkPendingLedgerEntries(ctx.userId, ctx.shopId);
          return {
            ordersAdded: counts.added,
            ordersChanged: counts.changed,
            rowsWritten: counts.added + counts.changed + quarantined.length,
          };
        },
      };
    },
  };
}

/**
 * The next keyset after a full page: the creation second of the page's last receipt, and how
 * many receipts of that second (at the end of the page) were already read. A page whose last
 * records could not be read falls back to a plain offset.
 */
function keysetAfter(
  page: EtsyReceiptPage,
  pass: { afterCreated: number; skip: number },
): { afterCreated: number; skip: number } {
  const received = page.receipts.length + page.rejected.length;
  const last = page.receipts.at(-1);
  const rejectedIndexes = new Set(page.rejected.map((record) => record.index));
  const lastReadableIndex = lastIndexNotIn(received, rejectedIndexes);
  if (!last || lastReadableIndex !== received - 1)
    return { afterCreated: pass.afterCreated, skip: pass.skip + received };
  const lastCreated = epochSeconds(last.createdAt.getTime());
  if (lastCreated <= pass.afterCreated) return { afterCreated: pass.afterCreated, skip: pass.skip + received };
  let sameSecond = 0;
  for (
    let index = page.receipts.length - 1;
    index >= 0 && epochSeconds(page.receipts[index].createdAt.getTime()) === lastCreated;
    index--
  )
    sameSecond += 1;
  // A rejected record between those of the same second would sit in the run too; such a page falls back to offsets.
  const tailStart = received - sameSecond;
  for (const index of rejectedIndexes)
    if (index >= tailStart) return { afterCreated: pass.afterCreated, skip: pass.skip + received };
  return { afterCreated: lastCreated, skip: sameSecond };
}

function lastIndexNotIn(length: number, excluded: ReadonlySet<number>): number {
  for (let index = length - 1; index >= 0; index--) if (!excluded.has(index)) return index;
  return -1;
}

function fail(message: string): never {
  throw new Error(`sync: ${message}`);
}
