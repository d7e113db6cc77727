import { randomBytes } from 'node:crypto';
import type { ShopCurrency } from './catalog';
import { Tenant } from './tenant';

export interface CreateTenantInput {
  id?: string;
  seed?: string;
  shopCurrency?: ShopCurrency;
  months?: number;
  ordersPerMonth?: number;
  printifyShops?: number;
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
  private nextOrdinal = 0;

  constructor(private readonly rootSeed: string) {}

  create(input: CreateTenantInput, asOf: number): { tenant: Tenant; printifyToken: string } {
    const id = input.id ?? `t_${randomBytes(12).toString('base64url')}`;
    if (this.tenants.has(id)) throw new Error(`tenant ${id} exists`);
    const tenant = new Tenant(
      id,
      {
        seed: `${this.rootSeed}/${input.seed ?? id}`,
        shopCurrency: input.shopCurrency ?? 'USD',
        months: input.months ?? 6,
        ordersPerMonth: input.ordersPerMonth ?? 120,
        printifyShops: input.printifyShops ?? 1,
        asOf,
      },
      this.nextOrdinal++,
    );
    this.tenants.set(id, tenant);
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
    this.byUser.delete(tenant.shop.userId);
    this.byShop.delete(tenant.shop.shopId);
    for (const shop of tenant.printifyShops) this.byPrintifyShop.delete(shop.id);
    for (const [token, credential] of this.printifyTokens) if (credential.tenantId === id) this.printifyTokens.delete(token);
    return true;
  }
}
