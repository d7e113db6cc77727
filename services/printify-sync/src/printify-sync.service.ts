import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ConnectionsRepository,
  PrintifyOrdersRepository,
  SyncQuarantineRepository,
  UserDataDeletedError,
  UserDataRepository,
  withTransaction,
  type SyncRun,
} from '@pod/db';
import type { PrintifyClient } from '@pod/integrations';
import { DomainEventPublisher, type RefreshOrderPayload, type RefreshResult } from '@pod/queue';
import {
  ConnectionMissingError,
  printifyOrderRow,
  printifyOrdersStream,
  MATCH_QUEUER,
  settleRefresh,
  SYNC_LOOKBACKS,
  type PrintifyStreamDeps,
  type MatchQueuer,
  type SyncLookbacks,
  type SyncStream,
} from '@pod/sync';

export const PRINTIFY_CLIENT = Symbol('PRINTIFY_CLIENT');

/** Printify amounts carry no currency (b.4): read as USD until the account says otherwise. */
const PRINTIFY_ACCOUNT_CURRENCY = 'USD';

/** The Printify side of a sync: the orders stream of the chosen shop, and the one-order refresh a webhook asks for. */
@Injectable()
export class PrintifySyncService {
  constructor(
    @Inject(PRINTIFY_CLIENT) private readonly printify: PrintifyClient,
    @Inject(SYNC_LOOKBACKS) private readonly lookbacks: SyncLookbacks,
    private readonly connections: ConnectionsRepository,
    private readonly dataSource: DataSource,
    private readonly events: DomainEventPublisher,
    @Inject(MATCH_QUEUER) private readonly queueMatch: MatchQueuer,
  ) {}

  async streamsFor(run: SyncRun): Promise<SyncStream<unknown>[]> {
    const deps = await this.depsFor(run.userId, run.shopId);
    if (!deps) throw new ConnectionMissingError('printify');
    return [printifyOrdersStream(this.printify, deps) as SyncStream<unknown>];
  }

  async refreshOrder(payload: RefreshOrderPayload): Promise<RefreshResult> {
    // Read before the fetch: a Delete All Data after it moves the epoch and the write below is refused (ADR 0036).
    const epoch = await new UserDataRepository(this.dataSource).epochOf(payload.userId);
    if (epoch === null) return { outcome: 'skipped' };
    const deps = await this.depsFor(payload.userId, payload.shopId);
    if (!deps) return { outcome: 'skipped' };
    const fetchedAt = new Date();
    const { order, payload: orderPayload } = await this.printify.getOrderWithPayload(
      deps.auth,
      payload.shopId,
      payload.orderId,
      { currency: deps.currency },
    );
    if (deps.syncFromMs !== null && order.createdAt.getTime() < deps.syncFromMs) return { outcome: 'skipped' };
    const row = printifyOrderRow(order, orderPayload);
    if (!row.ok) return { outcome: 'skipped' };
    const counts = await withTransaction(this.dataSource, async (tx) => {
      await new UserDataRepository(tx).hold(payload.userId, epoch);
      const written = await new PrintifyOrdersRepository(tx).upsertOrders(
        payload.userId,
        payload.shopId,
        [row.row],
        fetchedAt,
      );
      // Accepted now: a refusal of an earlier fetch is no longer true.
      await new SyncQuarantineRepository(tx).release(
        { userId: payload.userId, provider: 'printify', shopId: payload.shopId, stream: 'printify:orders' },
        [row.row.orderId],
      );
      return written;
    }).catch((error: unknown) => {
      if (error instanceof UserDataDeletedError) return null;
      throw error;
    });
    if (counts === null) return { outcome: 'skipped' };
    return settleRefresh(
      { publish: (name, event) => this.events.publish(name, event), queueMatch: this.queueMatch },
      { userId: payload.userId, provider: 'printify', shopId: payload.shopId },
      counts,
      fetchedAt,
    );
  }

  /** The decrypted token and the shop's settings, or null when the user has no usable connection to this shop. */
  private async depsFor(userId: string, shopId: string): Promise<PrintifyStreamDeps | null> {
    const found = await this.connections.readPrintifyToken(userId);
    if (!found || found.connection.shopId !== shopId || found.connection.status !== 'connected') return null;
    const { connection, token } = found;
    return {
      auth: { token, accountKey: connection.externalAccountId ?? `user:${userId}` },
      currency: PRINTIFY_ACCOUNT_CURRENCY,
      syncFromMs: connection.syncFrom === null ? null : Date.parse(`${connection.syncFrom}T00:00:00Z`),
      lookbacks: this.lookbacks,
      now: Date.now,
    };
  }
}
