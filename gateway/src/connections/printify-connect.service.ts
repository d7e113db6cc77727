import { createHash } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { ConnectionsRepository } from '@pod/db';
import { ConnectionEvents } from './connection-events';
import { PROVIDER_MESSAGES, type PrintifyShopView, type PrintifyTokenShops } from '@pod/contracts';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import type { SignedInUser } from '../auth/signed-in-user';
import type { ConnectPrintifyDto } from './dto/connections.dto';
import { PRINTIFY_API, type PrintifyPort, type PrintifyShop } from './provider-ports';
import { invalidPrintifyToken, isAuthFailure, providerErrorCode, providerFailure } from './provider-errors';
import { checkSyncFromDate } from './sync-from-date';
import { ApiException } from '../http/api-exception';

/** Printify personal access tokens are valid for a year from creation; we count from connecting. */
const PRINTIFY_TOKEN_LIFETIME_MS = 365 * 24 * 3600 * 1000;

const toView = (shop: PrintifyShop): PrintifyShopView => ({
  id: shop.id,
  title: shop.title,
  sales_channel: shop.salesChannel ?? 'disconnected',
});

/**
 * The merchant account behind a token, as far as a personal access token lets us tell: every
 * token of one account sees the same shops. Used to share Printify's per-account budget.
 */
const accountKey = (shops: PrintifyShop[]) =>
  `shops:${createHash('sha256')
    .update(
      shops
        .map((s) => String(s.id))
        .sort()
        .join(','),
    )
    .digest('base64url')
    .slice(0, 22)}`;

/** Printify by personal access token: validate (list the token's shops), connect, list shops. */
@Injectable()
export class PrintifyConnectService {
  constructor(
    @Inject(PRINTIFY_API) private readonly printify: PrintifyPort,
    private readonly connections: ConnectionsRepository,
    private readonly connectionEvents: ConnectionEvents,
    private readonly throttle: AbuseThrottleService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(PrintifyConnectService.name);
  }

  async validate(user: SignedInUser, token: string): Promise<PrintifyTokenShops> {
    return { shops: (await this.shopsOfToken(user, token)).map(toView) };
  }

  /** Re-validates the token server-side and checks the shop is one of its own before storing it. */
  async connect(
    user: SignedInUser,
    dto: ConnectPrintifyDto,
    now = new Date(),
  ): Promise<{ ok: true; shop: PrintifyShopView }> {
    const syncFrom = checkSyncFromDate(dto.syncFromDate, now);
    const shops = await this.shopsOfToken(user, dto.token);
    const shop = shops.find((s) => String(s.id) === dto.shopId);
    if (!shop)
      throw new ApiException(HttpStatus.BAD_REQUEST, 'printify_shop_required', PROVIDER_MESSAGES.selectPrintifyShop, {
        field: 'shopId',
      });
    const previous = (await this.connections.listForUser(user.id)).find((c) => c.provider === 'printify');
    // Another shop (of this account or another): its subscriptions are removed with the old token.
    if (previous?.shopId && previous.shopId !== String(shop.id))
      await this.connectionEvents.replacing(user.id, 'printify');
    await this.connections.savePrintify({
      userId: user.id,
      accountKey: accountKey(shops),
      shopId: String(shop.id),
      shopTitle: shop.title,
      salesChannel: shop.salesChannel ?? null,
      syncFrom,
      token: dto.token,
      tokenExpiresAt: new Date(now.getTime() + PRINTIFY_TOKEN_LIFETIME_MS),
    });
    this.logger.info({ event: 'printify.connected', userId: user.id }, 'Printify account connected');
    await this.connectionEvents.connected(user.id, 'connect', 'printify');
    return { ok: true, shop: toView(shop) };
  }

  /** The connected account's shops, asked live with the stored token. */
  async shopsOfConnection(user: SignedInUser): Promise<PrintifyShopView[]> {
    const stored = await this.connections.readPrintifyToken(user.id).catch((error: unknown) => {
      this.logger.warn(
        { event: 'printify.token_unreadable', userId: user.id, err: { name: (error as Error)?.name } },
        'stored token unreadable',
      );
      return 'unreadable' as const;
    });
    if (stored === null)
      throw new ApiException(HttpStatus.NOT_FOUND, 'printify_not_connected', 'Printify is not connected.');
    if (stored === 'unreadable' || stored.connection.status !== 'connected') throw this.reconnect();
    try {
      const accountKey = stored.connection.externalAccountId ?? `user:${user.id}`;
      return (await this.printify.listShops({ token: stored.token, accountKey })).map(toView);
    } catch (error) {
      if (isAuthFailure(error)) {
        await this.connections.markStatus(user.id, 'printify', 'expired');
        this.logger.warn({ event: 'printify.token_expired', userId: user.id }, 'Printify refused the stored token');
        throw this.reconnect();
      }
      throw this.failure(user, error);
    }
  }

  private async shopsOfToken(user: SignedInUser, token: string): Promise<PrintifyShop[]> {
    await this.throttle.assertTokenCheckAllowed(user.id);
    let shops: PrintifyShop[];
    try {
      // Before connecting we cannot know the account: the check spends the user's own budget.
      shops = await this.printify.listShops({ token, accountKey: `validate:${user.id}` });
    } catch (error) {
      if (isAuthFailure(error)) {
        this.logger.info({ event: 'printify.token_refused', userId: user.id }, 'Printify refused a token');
        throw invalidPrintifyToken();
      }
      throw this.failure(user, error);
    }
    if (shops.length === 0) throw invalidPrintifyToken();
    return shops;
  }

  private reconnect() {
    return new ApiException(
      HttpStatus.CONFLICT,
      'printify_token_invalid',
      'Your Printify token is no longer valid. Please reconnect Printify.',
    );
  }

  private failure(user: SignedInUser, error: unknown) {
    this.logger.warn(
      {
        event: 'printify.call_failed',
        userId: user.id,
        code: providerErrorCode(error),
        err: { name: (error as Error)?.name, message: (error as Error)?.message },
      },
      'Printify call failed',
    );
    return providerFailure(error, 'Printify');
  }
}
