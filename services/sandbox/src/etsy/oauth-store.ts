import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Everything Etsy documents about OAuth scopes, with what each lets an app do, in plain words. */
export const SCOPES: Record<string, string> = {
  address_r: 'See your shipping addresses',
  address_w: 'Change your shipping addresses',
  billing_r: 'See your Etsy bill, charges and fees',
  cart_r: 'See what is in your shopping cart',
  cart_w: 'Add to and remove from your shopping cart',
  email_r: 'See your email address',
  favorites_r: 'See your favourite listings and shops',
  favorites_w: 'Add to and remove from your favourites',
  feedback_r: 'See your purchase reviews',
  listings_d: 'Delete your listings',
  listings_r: 'See all of your listings, including inactive ones',
  listings_w: 'Create and change your listings',
  profile_r: 'See your profile, including private details',
  profile_w: 'Change your profile',
  recommend_r: 'See your recommended listings',
  recommend_w: 'Accept or reject recommended listings',
  shops_r: 'See your shop, including private details',
  shops_w: 'Change your shop',
  transactions_r: 'See your orders, payments and the fees Etsy charged you',
  transactions_w: 'Change your orders (for example, mark them shipped)',
};

export interface Grant {
  tenantId: string;
  userId: number;
  clientId: string;
  scopes: string[];
}

interface AuthCode extends Grant {
  redirectUri: string;
  challenge: string;
  expiresAtMs: number;
  used: boolean;
}

interface StoredToken extends Grant {
  expiresAtMs: number;
  revoked: boolean;
}

export type TokenResult =
  | { ok: true; body: { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string } }
  | { ok: false; error: string; description: string };
export type AccessCheck = { ok: true; grant: Grant } | { ok: false; description: string };

const CODE_LIFETIME_MS = 5 * 60_000;
const REFRESH_LIFETIME_MS = 90 * 86_400_000;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Authorization codes, access tokens and rotating refresh tokens, all in memory. */
export class OAuthStore {
  private readonly codes = new Map<string, AuthCode>();
  private readonly access = new Map<string, StoredToken>();
  private readonly refresh = new Map<string, StoredToken>();

  constructor(
    private readonly now: () => number,
    private readonly accessTtlSeconds: () => number,
  ) {}

  issueCode(grant: Grant, redirectUri: string, challenge: string): string {
    this.sweep();
    const code = randomBytes(36).toString('base64url');
    this.codes.set(code, { ...grant, redirectUri, challenge, expiresAtMs: this.now() + CODE_LIFETIME_MS, used: false });
    return code;
  }

  exchangeCode(input: { clientId: string; redirectUri: string; code: string; verifier: string }): TokenResult {
    const stored = this.codes.get(input.code);
    if (!stored) return fail('invalid_grant', 'code is invalid');
    if (stored.used) return fail('invalid_grant', 'code has already been used');
    if (stored.expiresAtMs <= this.now()) return fail('invalid_grant', 'code is expired');
    if (stored.clientId !== input.clientId) return fail('invalid_grant', 'code was issued to another client');
    if (stored.redirectUri !== input.redirectUri)
      return fail('invalid_grant', 'redirect_uri does not match the one used for the authorization request');
    if (!VERIFIER.test(input.verifier))
      return fail('invalid_request', 'code_verifier must be 43 to 128 characters of [A-Za-z0-9._~-]');
    if (!sameText(s256(input.verifier), stored.challenge)) return fail('invalid_grant', 'code_verifier is invalid');
    stored.used = true;
    return this.issueTokens(stored);
  }

  refreshTokens(input: { clientId: string; refreshToken: string }): TokenResult {
    const stored = this.refresh.get(input.refreshToken);
    if (!stored) return fail('invalid_grant', 'refresh_token is invalid');
    if (stored.clientId !== input.clientId) return fail('invalid_grant', 'refresh_token was issued to another client');
    if (stored.revoked) return fail('invalid_grant', 'refresh_token is revoked');
    if (stored.expiresAtMs <= this.now()) return fail('invalid_grant', 'refresh_token is expired');
    stored.revoked = true;
    return this.issueTokens(stored);
  }

  checkAccess(token: string): AccessCheck {
    const stored = this.access.get(token);
    if (!stored) return { ok: false, description: 'access token is invalid' };
    if (stored.revoked) return { ok: false, description: 'access token is revoked' };
    if (stored.expiresAtMs <= this.now()) return { ok: false, description: 'access token is expired' };
    return { ok: true, grant: stored };
  }

  /** Which tenant a (possibly expired) token or code belongs to, for logging and fault matching. */
  tenantOf(secret: string): string | null {
    return (this.access.get(secret) ?? this.refresh.get(secret) ?? this.codes.get(secret))?.tenantId ?? null;
  }

  expireAccessTokens(tenantId?: string): number {
    let n = 0;
    for (const token of this.access.values()) {
      if ((tenantId === undefined || token.tenantId === tenantId) && token.expiresAtMs > this.now()) {
        token.expiresAtMs = this.now();
        n++;
      }
    }
    return n;
  }

  revokeRefreshTokens(tenantId?: string): number {
    let n = 0;
    for (const token of this.refresh.values()) {
      if ((tenantId === undefined || token.tenantId === tenantId) && !token.revoked) {
        token.revoked = true;
        n++;
      }
    }
    return n;
  }

  dropTenant(tenantId: string): void {
    for (const map of [this.codes, this.access, this.refresh] as Array<Map<string, Grant>>) {
      for (const [key, value] of map) if (value.tenantId === tenantId) map.delete(key);
    }
  }

  private issueTokens(grant: Grant): TokenResult {
    this.sweep();
    const ttl = this.accessTtlSeconds();
    const base: Grant = {
      tenantId: grant.tenantId,
      userId: grant.userId,
      clientId: grant.clientId,
      scopes: grant.scopes,
    };
    const accessToken = `${grant.userId}.${randomBytes(48).toString('base64url')}`;
    const refreshToken = `${grant.userId}.${randomBytes(48).toString('base64url')}`;
    this.access.set(accessToken, { ...base, expiresAtMs: this.now() + ttl * 1000, revoked: false });
    this.refresh.set(refreshToken, { ...base, expiresAtMs: this.now() + REFRESH_LIFETIME_MS, revoked: false });
    return {
      ok: true,
      body: { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, refresh_token: refreshToken },
    };
  }

  /** Forgets codes and access tokens long dead, so a long-running demo does not grow forever. */
  private sweep(): void {
    const now = this.now();
    for (const [key, code] of this.codes) if (code.expiresAtMs + CODE_LIFETIME_MS < now) this.codes.delete(key);
    for (const [key, token] of this.access) if (token.expiresAtMs + 86_400_000 < now) this.access.delete(key);
  }
}

function fail(error: string, description: string): TokenResult {
  return { ok: false, error, description };
}
