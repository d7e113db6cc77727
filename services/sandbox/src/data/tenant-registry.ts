import { randomBytes } from 'node:crypto';
import type { ShopCurrency } from './catalog';
import { SELLER_PROFILES, type SellerProfileName } from './seller-profiles';
import { Tenant, type PrintifyEnvelope, type PrintifyLineCost } from './tenant';

export interface CreateTenantInput {
  id?: string;
  seed?: string;
  /** A named seller (see SELLER_PROFILES); the fields below win over it. */
  profile?: SellerProfileName;
  shopCurrency?: ShopCurrency;
  /** The payment account's currency (default: shopCurrency); another one converts the ledger. */
  paymentCurrency?: ShopCurrency;
  /** A VAT-registered seller (prices include VAT). */
  vatRegistered?: boolean;
  months?: number;
  ordersPerMonth?: number;
  printifyShops?: number;
  /** 'minimal': Printify order pages carry only current_page and data (default 'full'). */
  printifyEnvelope?: PrintifyEnvelope;
  /** Printify line `cost` of a multi-quantity line: 'per_unit' (default) or 'per_line'. */
  printifyLineCost?: PrintifyLineCost;
  /** The seller's sales over the last 365 days, whole USD (the Offsite Ads rate: 12% from 10000); drawn when absent. */
  salesLast365Usd?: number;
  /** Never offered by the consent page's seller picker: granted only for the seller a proxy names. */
  private?: boolean;
  /** Removed this long after creation at the latest (capped by the sandbox's maximum age). */
  lifetimeSeconds?: number;
  /** The sandbox's own seller made at start: it never expires and is never evicted. */
  permanent?: boolean;
}

/** When tenants expire: idle (no request for them) this long, or older than the maximum age. */
export interface TenantLifetimes {
  now: () => number;
  idleSeconds: number;
  maxAgeSeconds: number;
}

export interface TenantLife {
  createdAtMs: number;
  lastUsedMs: number;
  /** The absolute end: creation plus the tenant's lifetime (at most the maximum age). */
  expiresAtMs: number;
  private: boolean;
  permanent: boolean;
}

export interface PrintifyCredential {
  tenantId: string;
  expired: boolean;
}

/** The live tenants and the lookups the APIs need (Etsy user and shop, Printify token and shop). */
export class TenantRegistry {
  private readonly tenants = new Map<string, Tenant>();
  private readonly byUser = new Map<number, Tenant>();
  private readonly byShop = new Map<number, Tenant>();
  private readonly byPrintifyShop = new Map<number, Tenant>();
  private readonly printifyTokens = new Map<string, PrintifyCredential>();
  private readonly lives = new Map<string, TenantLife>();
  private nextOrdinal = 0;

  constructor(
    private readonly rootSeed: string,
    private readonly lifetimes: TenantLifetimes = {
      now: () => Date.now(),
      idleSeconds: 86_400,
      maxAgeSeconds: 7 * 86_400,
    },
  ) {}

  create(input: CreateTenantInput, asOf: number): { tenant: Tenant; printifyToken: string } {
    const id = input.id ?? `t_${randomBytes(12).toString('base64url')}`;
    if (this.tenants.has(id)) throw new Error(`tenant ${id} exists`);
    const profile: { shopCurrency?: ShopCurrency; paymentCurrency?: ShopCurrency; vatRegistered?: boolean } =
      input.profile ? SELLER_PROFILES[input.profile] : {};
    const tenant = new Tenant(
      id,
      {
        seed: `${this.rootSeed}/${input.seed ?? id}`,
        shopCurrency: input.shopCurrency ?? profile.shopCurrency ?? 'USD',
        paymentCurrency: input.paymentCurrency ?? profile.paymentCurrency,
        vatRegistered: input.vatRegistered ?? profile.vatRegistered,
        rateSeed: this.rootSeed,
        months: input.months ?? 6,
        ordersPerMonth: input.ordersPerMonth ?? 120,
        printifyShops: input.printifyShops ?? 1,
        asOf,
        printifyEnvelope: input.printifyEnvelope ?? 'full',
        printifyLineCost: input.printifyLineCost ?? 'per_unit',
        salesLast365Usd: input.salesLast365Usd,
      },
      this.nextOrdinal++,
    );
    this.tenants.set(id, tenant);
    const nowMs = this.lifetimes.now();
    const lifetimeSeconds = Math.min(
      input.lifetimeSeconds ?? this.lifetimes.maxAgeSeconds,
      this.lifetimes.maxAgeSeconds,
    );
    this.lives.set(id, {
      createdAtMs: nowMs,
      lastUsedMs: nowMs,
      expiresAtMs: nowMs + lifetimeSeconds * 1000,
      private: input.private === true,
      permanent: input.permanent === true,
    });
    this.byUser.set(tenant.shop.userId, tenant);
    this.byShop.set(tenant.shop.shopId, tenant);
    for (const shop of tenant.printifyShops) this.byPrintifyShop.set(shop.id, tenant);
    // Printify personal access tokens are long opaque strings (JWT-like in reality).
    const printifyToken = `pfy_${randomBytes(40).toString('base64url')}`;
    this.printifyTokens.set(printifyToken, { tenantId: id, expired: false });
    return { tenant, printifyToken };
  }

  get(id: string): Tenant | undefined {
    return this.tenants.get(id);
  }

  lifeOf(id: string): TenantLife | undefined {
    return this.lives.get(id);
  }

  /** A request for the tenant (API, consent page, admin read): it is not idle. */
  touch(id: string): void {
    const life = this.lives.get(id);
    if (life) life.lastUsedMs = Math.max(life.lastUsedMs, this.lifetimes.now());
  }

  /** Tenants idle too long or past their absolute end, oldest use first. */
  expiredIds(): string[] {
    const now = this.lifetimes.now();
    const idleMs = this.lifetimes.idleSeconds * 1000;
    return [...this.lives]
      .filter(([, life]) => !life.permanent && (life.expiresAtMs <= now || life.lastUsedMs + idleMs <= now))
      .sort((a, b) => a[1].lastUsedMs - b[1].lastUsedMs)
      .map(([id]) => id);
  }

  /** The tenant unused for longest (never the permanent one): the one that makes room when the sandbox is full. */
  leastRecentlyUsedId(): string | undefined {
    let oldest: [string, TenantLife] | undefined;
    for (const entry of this.lives)
      if (!entry[1].permanent && (!oldest || entry[1].lastUsedMs < oldest[1].lastUsedMs)) oldest = entry;
    return oldest?.[0];
  }

  list(): Tenant[] {
    return [...this.tenants.values()];
  }

  get size(): number {
    return this.tenants.size;
  }

  byUserId(userId: number): Tenant | undefined {
    return this.byUser.get(userId);
  }

  byShopId(shopId: number): Tenant | undefined {
    return this.byShop.get(shopId);
  }

  byPrintifyShopId(shopId: number): Tenant | undefined {
    return this.byPrintifyShop.get(shopId);
  }

  printifyCredential(token: string): PrintifyCredential | undefined {
    return this.printifyTokens.get(token);
  }

  /** Another personal access token of the tenant's Printify account (they share its limits). */
  addPrintifyToken(tenantId: string): string {
    const token = `pfy_${randomBytes(40).toString('base64url')}`;
    this.printifyTokens.set(token, { tenantId, expired: false });
    return token;
  }

  printifyTokensOf(tenantId: string): string[] {
    return [...this.printifyTokens].filter(([, c]) => c.tenantId === tenantId).map(([token]) => token);
  }

  expirePrintifyTokens(tenantId?: string): number {
    let n = 0;
    for (const credential of this.printifyTokens.values()) {
      if (tenantId === undefined || credential.tenantId === tenantId) {
        credential.expired = true;
        n++;
      }
    }
    return n;
  }

  delete(id: string): boolean {
    const tenant = this.tenants.get(id);
    if (!tenant) return false;
    this.tenants.delete(id);
    this.lives.delete(id);
    this.byUser.delete(tenant.shop.userId);
    this.byShop.delete(tenant.shop.shopId);
    for (const shop of tenant.printifyShops) this.byPrintifyShop.delete(shop.id);
    for (const [token, credential] of this.printifyTokens)
      if (credential.tenantId === id) this.printifyTokens.delete(token);
    return true;
  }
}
