import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Provider, SyncMode, SyncStartResponse, SyncStatusResponse, SyncTrigger } from '@pod/contracts';
import { isActiveSyncRunStatus } from '@pod/contracts';
import { ConnectionsRepository, SyncRunsRepository, type ConnectionSummary, type SyncRun } from '@pod/db';
import { ApiException } from '../http/api-exception';
import { ConnectionEvents } from '../connections/connection-events';
import { PrintifyConnectService } from '../connections/printify-connect.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { QueueProducer } from '../queues/queue-producer';
import { endedJustNow, FiguresSettling } from './figures-settling';
import { toSyncRunView } from './sync-run-view';

const NOT_CONNECTED = {
  etsy: { code: 'etsy_not_connected', message: 'Etsy is not connected. Connect it on the Connections page first.' },
  printify: {
    code: 'printify_not_connected',
    message: 'Printify is not connected. Connect it on the Connections page first.',
  },
} as const;

const RECONNECT = {
  etsy: 'Etsy needs reconnecting before it can sync. Reconnect it on the Connections page.',
  printify: 'Your Printify token no longer works. Connect Printify again with a new token.',
} as const;

/**
 * Starting sync runs and reading them. A start inserts the run (the partial unique index lets
 * only one be active per user and provider) and enqueues its job under the run's id; whoever
 * loses the race gets the active run. The gateway never syncs itself.
 */
@Injectable()
export class SyncRunsService {
  constructor(
    private readonly runs: SyncRunsRepository,
    private readonly connections: ConnectionsRepository,
    private readonly producer: QueueProducer,
    private readonly printify: PrintifyConnectService,
    private readonly connectionEvents: ConnectionEvents,
    private readonly settling: FiguresSettling,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(SyncRunsService.name);
  }

  /** For a person: refuses (4xx) when the provider is not connected or needs reconnecting. */
  async startForUser(userId: string, provider: Provider, shopId?: string): Promise<SyncStartResponse> {
    const connection = await this.usableConnection(userId, provider);
    return this.start(userId, provider, shopId ?? connection.shopId ?? '', 'user', 'incremental');
  }

  /**
   * Printify with a chosen shop ("Select Printify Shop"): it must be one of the connected
   * account's shops (asked live), else 404; choosing another shop makes it the connection's shop.
   */
  async startPrintifyForUser(user: SignedInUser, shopId?: string): Promise<SyncStartResponse> {
    const connection = await this.usableConnection(user.id, 'printify');
    if (shopId === undefined || shopId === connection.shopId)
      return this.start(user.id, 'printify', connection.shopId!, 'user', 'incremental');
    const shop = (await this.printify.shopsOfConnection(user)).find((candidate) => String(candidate.id) === shopId);
    if (!shop)
      throw new ApiException(
        HttpStatus.NOT_FOUND,
        'not_found',
        "That Printify shop is not one of your account's shops.",
        { field: 'shopId' },
      );
    const active = await this.runs.findActive(user.id, 'printify');
    if (active) return { run: toSyncRunView(active), alreadyRunning: true };
    await this.connectionEvents.replacing(user.id, 'printify');
    await this.connections.choosePrintifyShop(user.id, shopId, shop.title, shop.sales_channel);
    await this.connectionEvents.shopChanged(user.id, 'printify');
    return this.start(user.id, 'printify', shopId, 'user', 'incremental');
  }

  /** For schedules and first syncs: the connection is known to be usable. */
  async start(
    userId: string,
    provider: Provider,
    shopId: string,
    trigger: SyncTrigger,
    mode: SyncMode,
  ): Promise<SyncStartResponse> {
    const { run, created } = await this.runs.startOrGetActive({ userId, provider, shopId, trigger, mode });
    if (created) await this.enqueue(run);
    return { run: toSyncRunView(run), alreadyRunning: !created };
  }

  async status(userId: string, now = new Date()): Promise<SyncStatusResponse> {
    const latest = await this.runs.latestForUser(userId);
    const etsy = latest.etsy ? toSyncRunView(latest.etsy) : null;
    const printify = latest.printify ? toSyncRunView(latest.printify) : null;
    const runs = [etsy, printify].filter((run) => run !== null);
    const active = runs.some((run) => isActiveSyncRunStatus(run.status));
    // While a sync runs (or has just ended) the figures are unsettled anyway: matching and profits are asked only after.
    const settling =
      active ||
      runs.some((run) => endedJustNow(run.finishedAt, now)) ||
      (await this.settling.matchingOrProfitsPending(userId, now));
    return { etsy, printify, active, settling };
  }

  /** The first sync of both providers once both are connected (after a connect, or for a demo account). */
  async startFirstSyncs(userId: string, trigger: 'connect' | 'demo'): Promise<void> {
    const connections = await this.connections.listForUser(userId);
    const usable = connections.filter((c) => c.status === 'connected' && c.shopId);
    if (usable.length < 2) return;
    for (const connection of usable)
      await this.start(userId, connection.provider, connection.shopId!, trigger, 'incremental');
    this.logger.info({ event: 'sync.first_syncs_started', userId, trigger }, 'first syncs started');
  }

  async usableConnection(userId: string, provider: Provider): Promise<ConnectionSummary> {
    const connection = (await this.connections.listForUser(userId)).find((c) => c.provider === provider);
    if (!connection || !connection.shopId)
      throw new ApiException(HttpStatus.CONFLICT, NOT_CONNECTED[provider].code, NOT_CONNECTED[provider].message);
    if (connection.status !== 'connected')
      throw new ApiException(HttpStatus.CONFLICT, 'reconnect_required', RECONNECT[provider]);
    return connection;
  }

  /**
   * Puts the run's job on its queue (job id = run id, so a re-enqueue of the same run is a
   * no-op); `delayMs` holds it back (a run waiting for a daily quota keeps waiting).
   */
  async enqueue(run: SyncRun, delayMs = 0): Promise<void> {
    const queue = run.provider === 'etsy' ? 'etsy-sync' : 'printify-sync';
    try {
      await this.producer.enqueue(
        queue,
        'sync',
        { runId: run.id },
        { jobId: run.id, ...(delayMs > 0 ? { delay: delayMs } : {}) },
      );
    } catch (error) {
      // Redis did not take the job: the run must not block the next trigger as "active".
      await this.runs.fail(run.id, null, 'internal', 'The sync could not be queued. Try again shortly.');
      throw error;
    }
  }
}
