import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny stand-in for Etsy (OAuth token endpoint with PKCE, getMe, getShop) and Printify
 * (shops), speaking the documented protocol (shared/docs/integrations.md a.3, a.4, b.3) and
 * logging every request. The sandbox (services/sandbox) replaces it where it is available.
 */
export const STUB_KEYSTRING = 'stub-keystring';
export const STUB_SHARED_SECRET = 'stub-shared-secret-9f8e7d';
export const PRINTIFY_TOKENS = {
  valid: 'pfy-valid-token-6b1d3c0e9a7f4d2b8c5e1a3f7d9b2c4e',
  noShops: 'pfy-empty-token-1a2b3c4d5e6f7a8b9c0d',
  other: 'pfy-other-account-token-0f9e8d7c6b5a',
};
export const PRINTIFY_SHOPS = [
  { id: 8675309, title: 'Sunset Tees', sales_channel: 'etsy' },
  { id: 1234567, title: 'Back Office', sales_channel: 'disconnected' },
];

interface Grant {
  challenge: string;
  redirectUri: string;
  etsyUserId: string;
  used: boolean;
}

export interface LoggedRequest {
  method: string;
  path: string;
}

export class ProviderStub {
  readonly requests: LoggedRequest[] = [];
  /** Every token the stub handed out (to check none of them leaks). */
  readonly issuedTokens: string[] = [];
  /** Answer every Printify call with this status (e.g. 503) while set. */
  printifyFailure: number | null = null;
  private server!: Server;
  private readonly grants = new Map<string, Grant>();
  private readonly accessTokens = new Map<string, string>();
  private readonly refreshTokens = new Map<string, string>();
  private nextUser = 70_000_000;
  baseUrl = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The gateway settings that point both providers at the stub (live mode). */
  env(redirectUri?: string): Record<string, string> {
    return {
      ETSY_API_KEY: STUB_KEYSTRING,
      ETSY_SHARED_SECRET: STUB_SHARED_SECRET,
      ETSY_API_URL: `${this.baseUrl}/etsy`,
      ETSY_CONNECT_URL: `${this.baseUrl}/etsy/oauth/connect`,
      PRINTIFY_API_URL: `${this.baseUrl}/printify`,
      ...(redirectUri ? { ETSY_REDIRECT_URI: redirectUri } : {}),
    };
  }

  /** What Etsy's consent page does when the seller clicks Allow: a code bound to the challenge. */
  consent(authUrl: string): { code: string; state: string } {
    const url = new URL(authUrl);
    const code = randomBytes(16).toString('base64url');
    this.grants.set(code, {
      challenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri: url.searchParams.get('redirect_uri') ?? '',
      etsyUserId: String((this.nextUser += 1)),
      used: false,
    });
    return { code, state: url.searchParams.get('state') ?? '' };
  }

  tokenRequests(): number {
    return this.requests.filter((r) => r.path === '/etsy/v3/public/oauth/token').length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stub');
    this.requests.push({ method: req.method ?? '', path: url.pathname });
    const body = await new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

    if (url.pathname === '/etsy/oauth/connect') return this.consentPage(url, res);
    if (url.pathname === '/etsy/oauth/decide') return this.decide(url, res);
    if (url.pathname.startsWith('/etsy/')) {
      if (req.headers['x-api-key'] !== `${STUB_KEYSTRING}:${STUB_SHARED_SECRET}`) return send(403, { error: 'Invalid API key' });
      if (req.method === 'POST' && url.pathname === '/etsy/v3/public/oauth/token') return this.token(new URLSearchParams(body), send);
      const etsyUser = bearer ? this.accessTokens.get(bearer) : undefined;
      if (url.pathname === '/etsy/v3/application/users/me') {
        if (!etsyUser) return send(401, { error: 'invalid_token' });
        return send(200, { user_id: Number(etsyUser), shop_id: Number(etsyUser) + 1 });
      }
      const shop = /^\/etsy\/v3\/application\/shops\/(\d+)$/.exec(url.pathname);
      if (shop) {
        return send(200, {
          shop_id: Number(shop[1]),
          shop_name: 'SunsetTeeCo',
          currency_code: 'USD',
          shop_location_country_iso: 'US',
        });
      }
      return send(404, { error: 'Not found' });
    }
    if (url.pathname === '/printify/v1/shops.json') {
      if (this.printifyFailure) return send(this.printifyFailure, { error: 'Service unavailable' });
      if (bearer === PRINTIFY_TOKENS.valid) return send(200, PRINTIFY_SHOPS);
      if (bearer === PRINTIFY_TOKENS.other) return send(200, [{ id: 5550001, title: 'Other Account', sales_channel: 'shopify' }]);
      if (bearer === PRINTIFY_TOKENS.noShops) return send(200, []);
      return send(401, { error: 'Unauthenticated.' });
    }
    return send(404, { error: 'Not found' });
  }

  /** Etsy's consent screen, reduced to its two choices (plain links, no script). */
  private consentPage(url: URL, res: ServerResponse) {
    const decide = (choice: string) => {
      const target = new URL('/etsy/oauth/decide', this.baseUrl);
      for (const [key, value] of url.searchParams) target.searchParams.set(key, value);
      target.searchParams.set('choice', choice);
      return target.pathname + target.search;
    };
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Etsy (stub): allow access?</title></head>
<body><main><h1>Allow PodProfit to access your Etsy shop?</h1>
<a href="${escape(decide('allow'))}">Allow Access</a> <a href="${escape(decide('deny'))}">Deny</a></main></body></html>`);
  }

  private decide(url: URL, res: ServerResponse) {
    const back = new URL(url.searchParams.get('redirect_uri') ?? '');
    const state = url.searchParams.get('state') ?? '';
    if (url.searchParams.get('choice') === 'allow') {
      const { code } = this.consent(url.toString());
      back.searchParams.set('code', code);
    } else {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user denied the request.');
    }
    back.searchParams.set('state', state);
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private token(form: URLSearchParams, send: (status: number, payload: unknown) => void) {
    if (form.get('client_id') !== STUB_KEYSTRING) return send(400, { error: 'invalid_client' });
    if (form.get('grant_type') === 'authorization_code') {
      const grant = this.grants.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!grant || grant.used || grant.challenge !== challenge || grant.redirectUri !== form.get('redirect_uri')) {
        return send(400, { error: 'invalid_grant', error_description: 'code or verifier rejected' });
      }
      grant.used = true;
      return send(200, this.issue(grant.etsyUserId));
    }
    if (form.get('grant_type') === 'refresh_token') {
      const etsyUser = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!etsyUser) return send(400, { error: 'invalid_grant', error_description: 'refresh_token is revoked' });
      this.refreshTokens.delete(form.get('refresh_token') ?? '');
      return send(200, this.issue(etsyUser));
    }
    return send(400, { error: 'unsupported_grant_type' });
  }

  private issue(etsyUserId: string) {
    const access = `${etsyUserId}.${randomBytes(24).toString('base64url')}`;
    const refresh = `${etsyUserId}.${randomBytes(24).toString('base64url')}`;
    this.accessTokens.set(access, etsyUserId);
    this.refreshTokens.set(refresh, etsyUserId);
    this.issuedTokens.push(access, refresh);
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh };
  }
}
