import type { EtsyAccessTokens } from '@pod/connections';

/**
 * The slices of the provider clients (@pod/integrations) that the connection flows use. The
 * real EtsyClient and PrintifyClient satisfy them; keeping the gateway on these small shapes
 * makes the flows easy to read and to test.
 */
export interface EtsyOAuthPort {
  /** Asks for the client's ETSY_SCOPES. */
  authorizationUrl(input: { state: string; codeChallenge: string }): string;
  exchangeCode(input: { code: string; codeVerifier: string }): Promise<{
    accessToken: string;
    refreshToken: string;
    accessTokenExpiresAt: Date;
    etsyUserId: string;
  }>;
  getMe(auth: EtsyAccessTokens): Promise<{ userId: string | number; shopId: string | number | null | undefined }>;
  getShop(
    auth: EtsyAccessTokens,
    shopId: string,
  ): Promise<{ shopId: string | number; name: string; currency: string | null; country: string | null }>;
}

export interface PrintifyShop {
  id: number | string;
  title: string;
  salesChannel: string | null;
}

export interface PrintifyPort {
  /** `accountKey` names the rate-limit budget the call spends (all tokens of one account share one). */
  listShops(auth: { token: string; accountKey: string }): Promise<PrintifyShop[]>;
}

/** The webhook calls of the Printify client (scopes webhooks.read/write), for the subscriptions the gateway makes. */
export interface PrintifyWebhooksPort {
  listWebhooks(
    auth: { token: string; accountKey: string },
    shopId: string,
  ): Promise<{ webhooks: Array<{ id: string; topic: string; url: string }> }>;
  createWebhook(
    auth: { token: string; accountKey: string },
    shopId: string,
    input: { topic: string; url: string; secret?: string },
  ): Promise<{ id: string }>;
  deleteWebhook(
    auth: { token: string; accountKey: string },
    shopId: string,
    webhookId: string,
    host: string,
  ): Promise<void>;
}

export interface PkcePort {
  createPkcePair(): { verifier: string; challenge: string };
  randomState(): string;
}

export const ETSY_OAUTH = Symbol('ETSY_OAUTH');
export const PRINTIFY_API = Symbol('PRINTIFY_API');
export const PKCE = Symbol('PKCE');
