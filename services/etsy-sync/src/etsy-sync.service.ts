import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  ConnectionsRepository,
  EtsyOrdersRepository,
  SyncQuarantineRepository,
  UserDataDeletedError,
  UserDataRepository,
  withTransaction,
  type SyncRun,
} from '@pod/db';
import type { EtsyClient } from '@pod/integrations';
import type { EtsyTokenService } from '@pod/connections';
import { DomainEventPublisher, type RefreshReceiptPayload, type RefreshResult } from '@pod/queue';
import {
  ConnectionMissingError,
  etsyLedgerStream,
  etsyPaymentRow,
  etsyReceiptRow,
  etsyReceiptsStream,
  partition,
  MATCH_QUEUER,
  settleRefresh,
  SYNC_LOOKBACKS,
  type EtsyStreamDeps,
  type MatchQueuer,
  type SyncLookbacks,
  type SyncStream,
} from '@pod/sync';

export const ETSY_CLIENT = Symbol('ETSY_CLIENT');
export const ETSY_TOKENS = Symbol('ETSY_TOKENS');

/** The Etsy side of a sync: the streams a run walks, and the one-receipt refresh a webhook asks for. */
@Injectable()
export class EtsySyncService {
  constructor(
    @Inject(ETSY_CLIENT) private readonly etsy: EtsyClient,
    @Inject(ETSY_TOKENS) private readonly tokens: EtsyTokenService,
    @Inject(SYNC_LOOKBACKS) private readonly lookbacks: SyncLookbacks,
    private readonly connections: ConnectionsRepository,
    private readonly dataSource: DataSource,
    private readonly events: DomainEventPublisher,
    @Inject(MATCH_QUEUER) private readonly queueMatch: MatchQueuer,
  ) {}

  /** Receipts first (the ledger's first pass starts from the oldest receipt), then the ledger. */
  async streamsFor(run: SyncRun): Promise<SyncStream<unknown>[]> {
    const deps = await this.depsFor(run.userId, run.shopId);
    if (!deps) throw new ConnectionMissingError('etsy');
    return [
      etsyReceiptsStream(this.etsy, deps) as SyncStream<unknown>,
      etsyLedgerStream(this.etsy, deps) as SyncStream<unknown>,
    ];
  }

  /** A webhook named one receipt: fetch it and its payments, store them, announce a change. */
  async refreshReceipt(payload: RefreshReceiptPayload): Promise<RefreshResult> {
    // Read before the fetch: a Delete All Data after it moves the epoch and the write below is refused (ADR 0036).
    const epoch = await new UserDataRepository(this.dataSource).epochOf(payload.userId);
    if (epoch === null) return { outcome: 'skipped' };
    const deps = await this.depsFor(payload.userId, payload.shopId);
    if (!deps) return { outcome: 'skipped' };
    const fetchedAt = new Date();
    const { receipt, payload: receiptPayload } = await this.etsy.getReceipt(
      deps.auth,
      payload.shopId,
      payload.receiptId,
    );
    const payments = await this.etsy.receiptPayments(deps.auth, payload.shopId, payload.receiptId);
    const receiptRow = etsyReceiptRow(receipt, receiptPayload);
    if (!receiptRow.ok) return { outcome: 'skipped' };
    const paymentRows = partition(
      payments.payments.map((payment, index) => etsyPaymentRow(payment, payments.payloads[index])),
    ).rows;
    const counts = await withTransaction(this.dataSource, async (tx) => {
      await new UserDataRepository(tx).hold(payload.userId, epoch);
      const orders = new EtsyOrdersRepository(tx);
      const written = await orders.upsertReceipts(payload.userId, payload.shopId, [receiptRow.row], fetchedAt);
      await orders.upsertPayments(payload.userId, payload.shopId, paymentRows, fetchedAt);
      await orders.linkPendingLedgerEntries(payload.userId, payload.shopId);
      // Accepted now: a refusal of an earlier fetch is no longer true.
      const quarantine = new SyncQuarantineRepository(tx);
      const scope = { userId: payload.userId, provider: 'etsy' as const, shopId: payload.shopId };
      await quarantine.release({ ...scope, stream: 'etsy:receipts' }, [receiptRow.row.receiptId]);
      await quarantine.release(
        { ...scope, stream: 'etsy:ledger' },
        paymentRows.map((row) => row.paymentId),
      );
      return written;
    }).catch((error: unknown) => {
      if (error instanceof UserDataDeletedError) return null;
      throw error;
    });
    if (counts === null) return { outcome: 'skipped' };
    return settleRefresh(
      { publish: (name, event) => this.events.publish(name, event), queueMatch: this.queueMatch },
      { userId: payload.userId, provider: 'etsy', shopId: payload.shopId },
      counts,
      fetchedAt,
    );
  }

  /** The connection's token source, or null when the user has no usable Etsy connection to this shop. */
  private async depsFor(userId: string, shopId: string): Promise<EtsyStreamDeps | null> {
    const connection = (await this.connections.listForUser(userId)).find((row) => row.provider === 'etsy');
    if (!connection || connection.shopId !== shopId || connection.status !== 'connected') return null;
    return {
      auth: this.tokens.forConnection(userId, connection.id),
      dataSource: this.dataSource,
      lookbacks: this.lookbacks,
      now: Date.now,
    };
  }
}
