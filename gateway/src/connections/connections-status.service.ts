import { Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import { ConnectionsRepository } from '@pod/db';
import { PROVIDERS, type ConnectionsStatus } from '@pod/contracts';
import type { SignedInUser } from '../auth/signed-in-user';
import { ConnectionEvents } from './connection-events';
import type { DisconnectableService } from './dto/connections.dto';

/** Warn this long before a Printify token's (approximate) one-year expiry. */
const PRINTIFY_EXPIRY_WARNING_MS = 14 * 24 * 3600 * 1000;

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

/** Connection status (from the database only: no provider call) and disconnecting. */
@Injectable()
export class ConnectionsStatusService {
  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
    private readonly events: ConnectionEvents,
  ) {
    logger.setContext(ConnectionsStatusService.name);
  }

  async status(user: SignedInUser, now = new Date()): Promise<ConnectionsStatus> {
    const rows = await this.connections.listForUser(user.id);
    const etsy = rows.find((r) => r.provider === 'etsy');
    const printify = rows.find((r) => r.provider === 'printify');
    return {
      mode: effectiveProviders(this.config).mode,
      etsy: {
        connected: etsy?.status === 'connected',
        status: etsy?.status ?? null,
        needsReconnect: Boolean(etsy && etsy.status !== 'connected'),
        shopName: etsy?.shopName ?? null,
        shopId: etsy?.shopId ?? null,
        shopCurrency: etsy?.shopCurrency ?? null,
        lastSync: iso(etsy?.lastSyncAt),
        connectedAt: iso(etsy?.connectedAt),
      },
      printify: {
        connected: printify?.status === 'connected',
        status: printify?.status ?? null,
        needsReconnect: Boolean(printify && printify.status !== 'connected'),
        shopTitle: printify?.shopName ?? null,
        shopId: printify?.shopId ?? null,
        salesChannel: printify?.salesChannel ?? null,
        syncFrom: printify?.syncFrom ?? null,
        lastSync: iso(printify?.lastSyncAt),
        connectedAt: iso(printify?.connectedAt),
        tokenExpiresAt: iso(printify?.tokenExpiresAt),
        tokenExpiresSoon: Boolean(
          printify?.tokenExpiresAt &&
          new Date(printify.tokenExpiresAt).getTime() - now.getTime() < PRINTIFY_EXPIRY_WARNING_MS,
        ),
        webhookStatus: printify?.status === 'connected' ? printify.webhookStatus : null,
      },
    };
  }

  async disconnect(user: SignedInUser, service: DisconnectableService): Promise<{ ok: true }> {
    // While the connection and its token still exist (webhook subscriptions are removed with them).
    await this.events.disconnecting(user.id, service);
    const removed = await this.connections.remove(user.id, service);
    if (removed)
      this.logger.info({ event: `${service}.disconnected`, userId: user.id }, 'connection removed with its tokens');
    return { ok: true };
  }

  async disconnectAll(user: SignedInUser): Promise<{ ok: true }> {
    for (const provider of PROVIDERS) await this.events.disconnecting(user.id, provider);
    const removed = await this.connections.removeAll(user.id);
    this.logger.info(
      { event: 'connections.disconnected_all', userId: user.id, removed },
      'all connections removed with their tokens',
    );
    return { ok: true };
  }
}
