import type { FastifyInstance } from 'fastify';
import { createSandboxApp } from '../../../services/sandbox/src/app';
import type { SandboxOptions } from '../../../services/sandbox/src/config';
import { consentGrantBody } from '@pod/testing';

export const SANDBOX_ADMIN_TOKEN = 'sandbox-admin-test-token';

export interface SandboxTenant {
  tenantId: string;
  etsy: { userId: number; shopId: number; shopName: string; currency: string };
  printify: { token: string; accountId: string; shops: Array<{ id: number; title: string; sales_channel: string }> };
}

/**
 * The built-in sandbox (services/sandbox) in this process, on a free loopback port, with our
 * callback registered: the gateway runs in demo mode against it (SANDBOX_URL, no Etsy keys).
 */
export class SandboxProviders {
  private app!: FastifyInstance;
  url = '';
  /** Whose Etsy account the consent page grants when none is named. */
  consentTenant = 'default';

  /** `overrides`: other sandbox settings, e.g. a small `maxTenants`. */
  async start(redirectUri: string, overrides: Partial<SandboxOptions> = {}): Promise<void> {
    this.app = createSandboxApp({
      ...overrides,
      port: 0,
      adminToken: SANDBOX_ADMIN_TOKEN,
      etsyApp: {
        keystring: 'sandbox-keystring',
        sharedSecret: 'sandbox-shared-secret',
        name: 'PodProfit',
        redirectUris: [redirectUri],
      },
    });
    this.url = await this.app.listen({ host: '127.0.0.1', port: 0 });
  }

  async stop(): Promise<void> {
    await this.app?.close();
  }

  /** Demo mode: no Etsy credentials, every provider call to the sandbox. */
  env(redirectUri: string): Record<string, string> {
    return { SANDBOX_URL: this.url, SANDBOX_ADMIN_TOKEN, ETSY_REDIRECT_URI: redirectUri };
  }

  async admin<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/__sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${SANDBOX_ADMIN_TOKEN}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  tenant(id = 'default'): Promise<SandboxTenant> {
    return this.admin<SandboxTenant>('GET', `/tenants/${id}`);
  }

  /** A new seller with its own Etsy shop and Printify account (and token). */
  newTenant(printifyShops = 2): Promise<SandboxTenant> {
    return this.admin<SandboxTenant>('POST', '/tenants', { months: 1, ordersPerMonth: 5, printifyShops });
  }

  /** What the consent page's "Allow access" does for `tenantId`: a code for this authorization URL. */
  async consent(authUrl: string, tenantId = this.consentTenant): Promise<{ code: string; state: string }> {
    return this.admin<{ code: string; state: string }>('POST', `/tenants/${tenantId}/grant`, consentGrantBody(authUrl));
  }

  /** Requests the sandbox logged to Etsy's token endpoint so far. */
  async tokenRequests(): Promise<number> {
    const { requests } = await this.admin<{ requests: Array<{ path: string }> }>(
      'GET',
      '/requests?target=etsy&limit=100000',
    );
    return requests.filter((r) => r.path === '/v3/public/oauth/token').length;
  }

  async fault(spec: Record<string, unknown>): Promise<void> {
    await this.admin('POST', '/faults', spec);
  }

  async clearFaults(): Promise<void> {
    await this.admin('DELETE', '/faults');
  }
}
