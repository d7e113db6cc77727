import type { EntityManager } from 'typeorm';
import { PrintifyOrdersRepository, SyncQuarantineRepository } from '@pod/db';
import type { CurrencyCode } from '@pod/domain';
import type { PrintifyAuth, PrintifyOrderQuery, PrintifyOrdersOptions, PrintifyOrdersResult } from '@pod/integrations';
import type { FetchedPage, PageWriteResult, SyncStream, SyncStreamContext } from '../sync-stream';
import { partition, printifyOrderRow, quarantinedFrom } from './rows';
import type { SyncLookbacks } from './windows';

export interface PrintifyOrdersApi {
  listOrders(
    auth: PrintifyAuth,
    shopId: string,
    query: PrintifyOrderQuery,
    options?: PrintifyOrdersOptions,
  ): Promise<PrintifyOrdersResult>;
}

export interface PrintifyStreamDeps {
  auth: PrintifyAuth;
  /** The account's currency for Printify amounts (the payload names none). */
  currency: CurrencyCode;
  /** The connection's "Sync orders from" (ms since epoch), or null for every order. */
  syncFromMs: number | null;
  lookbacks: SyncLookbacks;
  now: () => number;
}

/**
 * Where the Printify orders stream stands. Printify lists orders newest first with no date
 * filter (b.4), so a pass pages from page 1 until it reaches orders placed before `stopBefore`
 * (the newest order seen by the last pass, less the look-back, and never before the connection's
 * "Sync orders from"). Orders placed while the pass runs push the list down: a page may repeat
 * orders already read (stored once, by key), never skip one.
 */
export interface PrintifyOrdersPosition {
  /** Epoch ms of the newest order stored. Null: never synced. */
  newest: number | null;
  pass: { page: number; stopBefore: number | null; newestSeen: number | null } | null;
}

export function printifyOrdersStream(
  api: PrintifyOrdersApi,
  deps: PrintifyStreamDeps,
): SyncStream<PrintifyOrdersPosition> {
  return {
    name: 'printify:orders',
    initial: () => ({ newest: null, pass: null }),
    begin(ctx: SyncStreamContext, stored: PrintifyOrdersPosition): PrintifyOrdersPosition {
      if (stored.pass) return stored;
      const lookbackMs = deps.lookbacks.printifyOrdersSeconds[ctx.mode] * 1000;
      const fromWatermark = stored.newest === null ? null : stored.newest - lookbackMs;
      const stopBefore =
        fromWatermark === null
          ? deps.syncFromMs
          : deps.syncFromMs === null
            ? fromWatermark
            : Math.max(fromWatermark, deps.syncFromMs);
      return { newest: stored.newest, pass: { page: 1, stopBefore, newestSeen: null } };
    },
    async fetchPage(
      ctx: SyncStreamContext,
      position: PrintifyOrdersPosition,
    ): Promise<FetchedPage<PrintifyOrdersPosition>> {
      const pass = position.pass ?? fail('the Printify stream fetched without a pass');
      const fetchedAt = new Date(deps.now());
      const page = await api.listOrders(
        deps.auth,
        ctx.shopId,
        { page: pass.page },
        { currency: deps.currency, signal: ctx.signal },
      );
      const placed = page.orders.map((order) => order.createdAt.getTime());
      const reachedOlder = pass.stopBefore !== null && placed.some((at) => at < (pass.stopBefore as number));
      const done = !page.hasNextPage || reachedOlder;
      const newestSeen = Math.max(pass.newestSeen ?? -Infinity, ...placed);
      const newestKnown = Number.isFinite(newestSeen) ? newestSeen : null;
      const next: PrintifyOrdersPosition = done
        ? { newest: maxOrNull(position.newest, newestKnown), pass: null }
        : {
            newest: position.newest,
            pass: { page: pass.page + 1, stopBefore: pass.stopBefore, newestSeen: newestKnown },
          };
      // Orders from before "Sync orders from" are not the seller's business here.
      const wanted = page.orders
        .map((order, index) => ({ order, payload: page.payloads[index] }))
        .filter(({ order }) => deps.syncFromMs === null || order.createdAt.getTime() >= (deps.syncFromMs as number));
      const { rows, quarantined } = partition(wanted.map(({ order, payload }) => printifyOrderRow(order, payload)));
      quarantined.push(...quarantinedFrom(page.rejected));
      return {
        next,
        done,
        requests: 1,
        expectedPages: position.newest === null && page.lastPage !== null ? page.lastPage : null,
        async write(tx: EntityManager): Promise<PageWriteResult> {
          const counts = await new PrintifyOrdersRepository(tx).upsertOrders(ctx.userId, ctx.shopId, rows, fetchedAt);
          const quarantine = new SyncQuarantineRepository(tx);
          const scope = {
            userId: ctx.userId,
            provider: 'printify' as const,
            shopId: ctx.shopId,
            stream: 'printify:orders',
          };
          await quarantine.record(scope, quarantined);
          await quarantine.release(
            scope,
            rows.map((row) => row.orderId),
          );
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

function maxOrNull(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.max(a, b);
}

function fail(message: string): never {
  throw new Error(`sync: ${message}`);
}
