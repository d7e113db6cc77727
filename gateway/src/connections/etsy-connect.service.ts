import { Inject, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import type { EtsyAccessTokens } from '@pod/connections';
import { ConnectionsRepository } from '@pod/db';
import { ConnectionEvents } from './connection-events';
import type { SignedInUser } from '../auth/signed-in-user';
import { OAuthStateStore, type StateRejection } from './oauth-state.store';
import { ETSY_OAUTH, PKCE, type EtsyOAuthPort, type PkcePort } from './provider-ports';
import { etsyCallbackFailureReason, providerErrorCode } from './provider-errors';

/** Where the callback sends the browser: always our own page, whatever the query asked for. */
export type EtsyCallbackOutcome =
  | {
      kind: 'redirect';
      location: '/connections?etsy=connected' | '/connections?etsy=denied' | `/connections?etsy=error&reason=${string}`;
    }
  | { kind: 'rejected'; reason: StateRejection | 'missing-state' | 'signed-out' };

export interface EtsyCallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

/** A token the callback holds for a moment (before the connection row exists), never refreshed. */
function freshTokenAuth(accessToken: string): EtsyAccessTokens {
  return {
    connectionKey: 'oauth-callback',
    getAccessToken: async () => accessToken,
    refreshAfterUnauthorized: async () => Promise.reject(new Error('A just-issued Etsy token was refused')),
  };
}

/** Etsy's OAuth 2.0 authorization-code flow with PKCE: start, then finish on the callback. */
@Injectable()
export class EtsyConnectService {
  constructor(
    @Inject(ETSY_OAUTH) private readonly etsy: EtsyOAuthPort,
    @Inject(PKCE) private readonly pkce: PkcePort,
    private readonly states: OAuthStateStore,
    private readonly connections: ConnectionsRepository,
    private readonly connectionEvents: ConnectionEvents,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(EtsyConnectService.name);
  }

  /** A new single-use state and PKCE pair for this session; the URL of Etsy's consent page. */
  async start(user: SignedInUser): Promise<{ authUrl: string }> {
    const state = this.pkce.randomState();
    const { verifier, challenge } = this.pkce.createPkcePair();
    const redirectUri = effectiveProviders(this.config).etsy.redirectUri;
    await this.states.create({
      userId: user.id,
      sessionIdHash: user.sessionIdHash,
      state,
      codeVerifier: verifier,
      redirectUri,
    });
    this.logger.info({ event: 'etsy.oauth_started', userId: user.id }, 'Etsy authorization started');
    return { authUrl: this.etsy.authorizationUrl({ state, codeChallenge: challenge }) };
  }

  /**
   * The state is checked first, against the caller's own session; nothing is sent to Etsy
   * unless it is this session's, unexpired and unused. Then the code is exchanged with the
   * stored verifier, the shop looked up and the connection stored with encrypted tokens.
   */
  async finish(user: SignedInUser | null, query: EtsyCallbackQuery): Promise<EtsyCallbackOutcome> {
    if (!query.state) return this.reject(user, 'missing-state');
    if (!user) return this.reject(user, 'signed-out');
    const consumed = await this.states.consume(query.state, { userId: user.id, sessionIdHash: user.sessionIdHash });
    if (!consumed.ok) return this.reject(user, consumed.reason);

    if (query.error) {
      const denied = query.error === 'access_denied';
      this.logger.info(
        { event: denied ? 'etsy.oauth_denied' : 'etsy.oauth_error', userId: user.id },
        'Etsy authorization not granted',
      );
      return {
        kind: 'redirect',
        location: denied ? '/connections?etsy=denied' : '/connections?etsy=error&reason=authorization',
      };
    }
    if (!query.code) return { kind: 'redirect', location: '/connections?etsy=error&reason=authorization' };
    if (consumed.redirectUri !== effectiveProviders(this.config).etsy.redirectUri) {
      // The redirect URI changed while the user was on Etsy's page: the exchange would fail.
      return { kind: 'redirect', location: '/connections?etsy=error&reason=configuration' };
    }

    let step: 'exchange' | 'shop' = 'exchange';
    try {
      const tokens = await this.etsy.exchangeCode({ code: query.code, codeVerifier: consumed.codeVerifier });
      step = 'shop';
      const auth = freshTokenAuth(tokens.accessToken);
      const me = await this.etsy.getMe(auth);
      if (me.shopId === null || me.shopId === undefined || me.shopId === '') {
        this.logger.info({ event: 'etsy.oauth_no_shop', userId: user.id }, 'Etsy account has no shop');
        return { kind: 'redirect', location: '/connections?etsy=error&reason=no_shop' };
      }
      const shop = await this.etsy.getShop(auth, String(me.shopId));
      await this.connections.saveEtsy({
        userId: user.id,
        etsyUserId: String(tokens.etsyUserId || me.userId),
        shopId: String(shop.shopId),
        shopName: shop.name,
        shopCurrency: shop.currency ?? null,
        shopCountry: shop.country ?? null,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
      });
      this.logger.info({ event: 'etsy.connected', userId: user.id }, 'Etsy shop connected');
      await this.connectionEvents.connected(user.id, 'connect', 'etsy');
      return { kind: 'redirect', location: '/connections?etsy=connected' };
    } catch (error) {
      const code = providerErrorCode(error);
      // Only the name and message: the clients' messages name host and path, never a code,
      // token or secret; a database error's parameters (ciphertexts) stay out of the log.
      const err = { name: (error as Error)?.name, message: (error as Error)?.message };
      if (!code) {
        this.logger.error({ event: 'etsy.oauth_failed', userId: user.id, step, err }, 'Etsy connection failed');
        return { kind: 'redirect', location: '/connections?etsy=error&reason=internal' };
      }
      this.logger.warn({ event: 'etsy.oauth_failed', userId: user.id, step, code, err }, 'Etsy connection failed');
      const reason = etsyCallbackFailureReason(code, step);
      return { kind: 'redirect', location: `/connections?etsy=error&reason=${reason}` };
    }
  }

  private reject(
    user: SignedInUser | null,
    reason: StateRejection | 'missing-state' | 'signed-out',
  ): EtsyCallbackOutcome {
    this.logger.warn(
      { event: 'etsy.oauth_state_rejected', userId: user?.id, reason },
      'Etsy callback refused: state check failed',
    );
    return { kind: 'rejected', reason };
  }
}
