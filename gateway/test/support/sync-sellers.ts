import { queryDatabase } from '@pod/testing';
import type { SandboxProviders, SandboxTenant } from './sandbox-providers';
import { register, SAME_ORIGIN, sessionCookie, uniqueEmail, type TestGateway } from './test-gateway';

/** A seller signed in on the in-process gateway, with a sandbox tenant behind its Etsy shop and Printify account. */
export interface Seller {
  tenant: SandboxTenant & { orders: number; asOf: number };
  cookie: string;
  userId: string;
  etsyShop: string;
  printifyShop: string;
}

export type RunRow = {
  id: string;
  status: string;
  pages_done: number;
  orders_added: number;
  orders_changed: number;
  error_code: string | null;
  created_at: Date;
  finished_at: Date | null;
};

/**
 * Creates a sandbox tenant and a PodProfit seller, and connects the seller's Etsy shop (through
 * the consent page's grant and the gateway's callback) and, unless `etsyOnly`, its Printify
 * account: connecting both starts the first syncs of both, as in the product.
 */
export async function connectSeller(
  gw: TestGateway,
  sandbox: SandboxProviders,
  databaseUrl: string,
  tenantSpec: Record<string, unknown>,
  options: { etsyOnly?: boolean } = {},
): Promise<Seller> {
  const tenant = await sandbox.admin<Seller['tenant']>('POST', '/tenants', { private: true, ...tenantSpec });
  const email = uniqueEmail('reliability');
  const cookie = sessionCookie(await register(gw.app, email));
  const [{ id: userId }] = await queryDatabase<{ id: string }>(
    databaseUrl,
    `SELECT id FROM app_user WHERE email = $1`,
    [email],
  );
  const post = (url: string, payload?: unknown) =>
    gw.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, cookie }, payload: payload as object });
  const start = await post('/api/connections/etsy/oauth');
  const { code, state } = await sandbox.consent(start.json().authUrl, tenant.tenantId);
  const callback = await gw.app.inject({
    method: 'GET',
    url: `/api/connections/etsy/callback?${new URLSearchParams({ code, state })}`,
    headers: { cookie },
  });
  if (callback.headers.location !== '/connections?etsy=connected')
    throw new Error(`Etsy connect failed: ${callback.statusCode} ${String(callback.headers.location)}`);
  const seller: Seller = {
    tenant,
    cookie,
    userId,
    etsyShop: String(tenant.etsy.shopId),
    printifyShop: String(tenant.printify.shops[0].id),
  };
  if (!options.etsyOnly) await connectPrintify(gw, seller);
  return seller;
}

/** Connects the seller's own Printify account, or `account`: another token of someone's account and one of its shops. */
export async function connectPrintify(
  gw: TestGateway,
  seller: Seller,
  account?: { token: string; shopId: string },
): Promise<void> {
  if (account) seller.printifyShop = account.shopId;
  const response = await gw.app.inject({
    method: 'POST',
    url: '/api/connections/printify',
    headers: { ...SAME_ORIGIN, cookie: seller.cookie },
    payload: account ?? { token: seller.tenant.printify.token, shopId: seller.printifyShop },
  });
  if (response.statusCode !== 200) throw new Error(`Printify connect failed: ${response.statusCode} ${response.body}`);
}

/** POST /api/sync/<provider> as the seller: the run's id (202), or throws. */
export async function triggerSync(gw: TestGateway, seller: Seller, provider: 'etsy' | 'printify'): Promise<string> {
  const response = await gw.app.inject({
    method: 'POST',
    url: `/api/sync/${provider}`,
    headers: { ...SAME_ORIGIN, cookie: seller.cookie },
    payload: {},
  });
  if (response.statusCode !== 202) throw new Error(`sync ${provider} refused: ${response.statusCode} ${response.body}`);
  return response.json().run.id as string;
}

/** The seller's runs of a provider, oldest first. */
export function runsOf(databaseUrl: string, seller: Seller, provider: 'etsy' | 'printify'): Promise<RunRow[]> {
  return queryDatabase<RunRow>(
    databaseUrl,
    `SELECT id, status, pages_done, orders_added, orders_changed, error_code, created_at, finished_at FROM sync_run
     WHERE user_id = $1 AND provider = $2 ORDER BY created_at, id`,
    [seller.userId, provider],
  );
}
