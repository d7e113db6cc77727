import type { EntityManager } from 'typeorm';
import { EtsyOrdersRepository, SyncQuarantineRepository, type EtsyPaymentRow, type QuarantinedRecord } from '@pod/db';
import {
  ETSY_MAX_IDS_PER_CALL,
  ETSY_MAX_LEDGER_WINDOW_SECONDS,
  type CallOptions,
  type EtsyAuth,
  type EtsyLedgerEntry,
  type EtsyLedgerPage,
  type EtsyLedgerQuery,
  type EtsyPaymentList,
} from '@pod/integrations';
import type { FetchedPage, PageWriteResult, SyncStream, SyncStreamContext } from '../sync-stream';
import type { EtsyStreamDeps } from './etsy-receipts-stream';
import { isSale, paymentsBehindEntries } from './ledger-payments-owed';
import { etsyLedgerEntryRow, etsyPaymentRow, partition, quarantinedFrom } from './rows';
import { epochSeconds, ETSY_EARLIEST_TIMESTAMP } from './windows';

export interface EtsyLedgerApi {
  listLedgerEntries(
    auth: EtsyAuth,
    shopId: string,
    query: EtsyLedgerQuery,
    options?: CallOptions,
  ): Promise<EtsyLedgerPage>;
  listLedgerEntryPayments(
    auth: EtsyAuth,
    shopId: string,
    ledgerEntryIds: readonly string[],
    options?: CallOptions,
  ): Promise<EtsyPaymentList>;
  listPaymentsByIds(
    auth: EtsyAuth,
    shopId: string,
    paymentIds: readonly string[],
    options?: CallOptions,
  ): Promise<EtsyPaymentList>;
}

/**
 * Where the ledger stream stands. A pass walks 31-day windows (Etsy's widest) from `from` to
 * `until` (when the pass began), each by offset. Every window ends in the past, so no new entry
 * joins it while it is paged; back-dated entries are caught by the next pass's look-back.
 *
 * The payments behind the entries are fetched ETSY_MAX_IDS_PER_CALL at a time: the ids a page
 * finds wait in the pass (committed with the page) until a full call's worth has gathered, and
 * the pass's last page fetches the rest, so a pass never ends with a payment owed.
 */
export interface EtsyLedgerPosition {
  /** Epoch s: every entry created before it is stored. Null: never synced. */
  watermark: number | null;
  pass: {
    /** Null until the first page decides it (from the oldest stored receipt). */
    windowStart: number | null;
    until: number;
    offset: number;
    pagesDone: number;
    /**
     * Entries whose payment is fetched by entry id: sales (PAYMENT_GROSS) whose payment is not
     * stored yet, refund entries carrying no adjustment. Absent in passes stored before payments were batched.
     */
    pendingSales?: string[];
    /** Payments a refund changed, to fetch again. */
    pendingRefunds?: string[];
  } | null;
}

export const ETSY_LEDGER_PAGE_SIZE = 100;
const DAY = 86_400;

export function etsyLedgerStream(api: EtsyLedgerApi, deps: EtsyStreamDeps): SyncStream<EtsyLedgerPosition> {
  return {
    name: 'etsy:ledger',
    initial: () => ({ watermark: null, pass: null }),
    begin(ctx: SyncStreamContext, stored: EtsyLedgerPosition): EtsyLedgerPosition {
      if (stored.pass) return stored;
      const windowStart =
        stored.watermark === null ? null : stored.watermark - deps.lookbacks.etsyLedgerSeconds[ctx.mode];
      return {
        watermark: stored.watermark,
        pass: { windowStart, until: epochSeconds(deps.now()), offset: 0, pagesDone: 0 },
      };
    },
    async fetchPage(ctx: SyncStreamContext, position: EtsyLedgerPosition): Promise<FetchedPage<EtsyLedgerPosition>> {
      const pass = position.pass ?? fail('the ledger stream fetched without a pass');
      const windowStart = Math.max(
        ETSY_EARLIEST_TIMESTAMP,
        pass.windowStart ?? (await firstWindowStart(deps, ctx, pass.until)),
      );
      const windowEnd = Math.min(windowStart + ETSY_MAX_LEDGER_WINDOW_SECONDS, pass.until);
      const fetchedAt = new Date(deps.now());
      const page = await api.listLedgerEntries(
        deps.auth,
        ctx.shopId,
        {
          minCreated: windowStart,
          maxCreated: windowEnd,
          limit: ETSY_LEDGER_PAGE_SIZE,
          offset: pass.offset,
        },
        { signal: ctx.signal },
      );
      const received = page.entries.length + page.rejected.length;
      const moreInWindow = received === ETSY_LEDGER_PAGE_SIZE && pass.offset + received < page.count;
      const nextStart = windowEnd + 1;
      const done = !moreInWindow && nextStart > pass.until;
      const owed = await paymentsOwed(deps, ctx, pass, page.entries);
      const payments = await fetchPayments(api, deps, ctx, owed, done);
      const carried = { pendingSales: payments.pendingSales, pendingRefunds: payments.pendingRefunds };
      const next: EtsyLedgerPosition = done
        ? { watermark: pass.until, pass: null }
        : {
            watermark: position.watermark,
            pass: moreInWindow
              ? { ...pass, ...carried, windowStart, offset: pass.offset + received, pagesDone: pass.pagesDone + 1 }
              : { ...pass, ...carried, windowStart: nextStart, offset: 0, pagesDone: pass.pagesDone + 1 },
          };
      const windowsLeft = Math.ceil(Math.max(0, pass.until - windowEnd) / ETSY_MAX_LEDGER_WINDOW_SECONDS);
      const pagesLeftInWindow = Math.ceil(Math.max(0, page.count - pass.offset - received) / ETSY_LEDGER_PAGE_SIZE);
      const entryRows = page.entries.map((entry, index) => etsyLedgerEntryRow(entry, page.payloads[index]));
      const quarantined: QuarantinedRecord[] = quarantinedFrom(page.rejected);
      quarantined.push(...payments.quarantined);
      return {
        next,
        done,
        requests: 1 + payments.requests,
        expectedPages: pass.pagesDone + 1 + pagesLeftInWindow + windowsLeft,
        async write(tx: EntityManager): Promise<PageWriteResult> {
          const orders = new EtsyOrdersRepository(tx);
          const entries = await orders.upsertLedgerEntries(ctx.userId, ctx.shopId, entryRows);
          const paid = await orders.upsertPayments(ctx.userId, ctx.shopId, payments.rows, fetchedAt);
          const quarantine = new SyncQuarantineRepository(tx);
          const scope = { userId: ctx.userId, provider: 'etsy' as const, shopId: ctx.shopId, stream: 'etsy:ledger' };
          await quarantine.record(scope, quarantined);
          await quarantine.release(scope, [
            ...entryRows.map((row) => row.entryId),
            ...payments.rows.map((row) => row.paymentId),
          ]);
          await orders.linkPendingLedgerEntries(ctx.userId, ctx.shopId);
          // A ledger page changes no order count: its rows are fees and payments of receipts counted by the receipts stream.
          return {
            ordersAdded: 0,
            ordersChanged: 0,
            rowsWritten: entries.added + entries.changed + paid.added + paid.changed + quarantined.length,
          };
        },
      };
    },
  };
}

/** A shop's first pass starts a day before its oldest stored receipt (or one window back when it has none). */
async function firstWindowStart(deps: EtsyStreamDeps, ctx: SyncStreamContext, until: number): Promise<number> {
  const oldest = await new EtsyOrdersRepository(deps.dataSource).oldestReceiptAt(ctx.userId, ctx.shopId);
  return oldest === null ? until - ETSY_MAX_LEDGER_WINDOW_SECONDS : epochSeconds(oldest.getTime()) - DAY;
}

/**
 * The payments a page's entries add to those the pass already owes (paymentsBehindEntries): by
 * entry, a sale (PAYMENT_GROSS) whose payment is not stored yet and a refund entry carrying no
 * adjustment, fetched through getPaymentAccountLedgerEntryPayments; by payment id, a refund's
 * payment (its payment adjustment names it), fetched again through getPayments, since the refund
 * changed that payment's adjusted amounts.
 */
async function paymentsOwed(
  deps: EtsyStreamDeps,
  ctx: SyncStreamContext,
  pass: NonNullable<EtsyLedgerPosition['pass']>,
  entries: readonly EtsyLedgerEntry[],
): Promise<{ sales: string[]; refunds: string[] }> {
  const saleReferences = entries.filter((entry) => isSale(entry) && entry.referenceId !== null);
  const stored = await new EtsyOrdersRepository(deps.dataSource).knownPaymentIds(
    ctx.userId,
    ctx.shopId,
    saleReferences.map((entry) => entry.referenceId as string),
  );
  const { byEntry, byPaymentId } = paymentsBehindEntries(entries, stored);
  return {
    sales: [...new Set([...(pass.pendingSales ?? []), ...byEntry])],
    refunds: [...new Set([...(pass.pendingRefunds ?? []), ...byPaymentId])],
  };
}

/**
 * Fetches the owed payments in full calls of ETSY_MAX_IDS_PER_CALL ids, or all of them on the
 * pass's last page; what is left waits for the next page.
 */
async function fetchPayments(
  api: EtsyLedgerApi,
  deps: EtsyStreamDeps,
  ctx: SyncStreamContext,
  owed: { sales: string[]; refunds: string[] },
  lastPage: boolean,
): Promise<{
  rows: EtsyPaymentRow[];
  quarantined: QuarantinedRecord[];
  requests: number;
  pendingSales: string[];
  pendingRefunds: string[];
}> {
  const lists: EtsyPaymentList[] = [];
  const drain = async (ids: string[], call: (batch: string[]) => Promise<EtsyPaymentList>): Promise<string[]> => {
    let left = ids;
    while (left.length >= ETSY_MAX_IDS_PER_CALL || (lastPage && left.length > 0)) {
      lists.push(await call(left.slice(0, ETSY_MAX_IDS_PER_CALL)));
      left = left.slice(ETSY_MAX_IDS_PER_CALL);
    }
    return left;
  };
  const pendingSales = await drain(owed.sales, (batch) =>
    api.listLedgerEntryPayments(deps.auth, ctx.shopId, batch, { signal: ctx.signal }),
  );
  const pendingRefunds = await drain(owed.refunds, (batch) =>
    api.listPaymentsByIds(deps.auth, ctx.shopId, batch, { signal: ctx.signal }),
  );
  const outcomes = lists.flatMap((list) =>
    list.payments.map((payment, index) => etsyPaymentRow(payment, list.payloads[index])),
  );
  const { rows, quarantined } = partition(outcomes);
  for (const list of lists) quarantined.push(...quarantinedFrom(list.rejected));
  return { rows, quarantined, requests: lists.length, pendingSales, pendingRefunds };
}

function fail(message: string): never {
  throw new Error(`sync: ${message}`);
}
