import { Injectable } from '@nestjs/common';
import { AppConfig, readOrCreateLocalSandboxAdminToken } from '@pod/config';

export interface SandboxTenant {
  tenantId: string;
  etsy: { userId: string; shopId: string; shopName: string };
  printify: { token: string; shops: Array<{ id: number; title: string; sales_channel: string }> };
}

export interface NewTenant {
  id: string;
  seed: string;
  shopCurrency: 'USD' | 'EUR' | 'GBP';
  months: number;
  ordersPerMonth: number;
  printifyShops: number;
  /** Reachable only through the gateway's consent proxy, never through the sandbox's seller picker. */
  private: true;
  /** The sandbox removes the tenant this long after creation at the latest (a demo passes its own lifetime). */
  lifetimeSeconds?: number;
}

function toTenant(body: Record<string, unknown>): SandboxTenant {
  const etsy = body.etsy as SandboxTenant['etsy'];
  const printify = body.printify as { token?: string; tokens?: string[]; shops: SandboxTenant['printify']['shops'] };
  const token = printify.token ?? printify.tokens?.[0] ?? '';
  return {
    tenantId: String(body.tenantId),
    etsy: { ...etsy, userId: String(etsy.userId), shopId: String(etsy.shopId) },
    printify: { token, shops: printify.shops },
  };
}

export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUnavailableError';
  }
}

const TIMEOUT_MS = 15_000;

/** The sandbox's admin API (demo mode only): a seller per demo visitor, and the grant that stands in for a click on Allow. */
@Injectable()
export class SandboxAdminClient {
  constructor(private readonly config: AppConfig) {}

  async createTenant(input: NewTenant): Promise<SandboxTenant> {
    return toTenant(await this.call<Record<string, unknown>>('POST', '/__sandbox/tenants', input));
  }

  async getTenant(tenantId: string): Promise<SandboxTenant | null> {
    const body = await this.call<Record<string, unknown>>(
      'GET',
      `/__sandbox/tenants/${encodeURIComponent(tenantId)}`,
      undefined,
      [404],
    );
    return body.tenantId ? toTenant(body) : null;
  }

  /** The ids of every tenant the sandbox holds now (expired and evicted ones are gone). */
  async listTenantIds(): Promise<Set<string>> {
    const body = await this.call<{ tenants?: Array<{ tenantId?: unknown }> }>('GET', '/__sandbox/tenants');
    if (!Array.isArray(body.tenants)) throw new SandboxUnavailableError('the sandbox listed no tenants');
    return new Set(body.tenants.map((tenant) => String(tenant.tenantId)));
  }

  /** An authorization code as if the tenant's Etsy user had clicked Allow on the consent page. */
  async grant(
    tenantId: string,
    params: {
      clientId: string;
      redirectUri: string;
      scope: string;
      state: string;
      codeChallenge: string;
      codeChallengeMethod: string;
    },
  ): Promise<string> {
    const body = await this.call<{ code?: unknown }>(
      'POST',
      `/__sandbox/tenants/${encodeURIComponent(tenantId)}/grant`,
      params,
    );
    if (typeof body.code !== 'string') throw new SandboxUnavailableError('the sandbox granted no code');
    return body.code;
  }

  /** Idempotent: a tenant already gone is fine. */
  async deleteTenant(tenantId: string): Promise<void> {
    await this.call('DELETE', `/__sandbox/tenants/${encodeURIComponent(tenantId)}`, undefined, [404]);
  }

  /**
   * SANDBOX_ADMIN_TOKEN, or on a local start without it the one generated into
   * .data/sandbox-admin-token (the sandbox on loopback reads the same file). Production has no
   * fallback: there is no default token to fall back on.
   */
  private adminToken(): string {
    if (this.config.SANDBOX_ADMIN_TOKEN) return this.config.SANDBOX_ADMIN_TOKEN;
    if (this.config.isProduction) throw new SandboxUnavailableError('SANDBOX_ADMIN_TOKEN is not set');
    return readOrCreateLocalSandboxAdminToken();
  }

  private async call<T>(method: string, path: string, payload?: unknown, okStatuses: number[] = []): Promise<T> {
    const token = this.adminToken();
    let response: Response;
    try {
      response = await fetch(new URL(path, this.config.SANDBOX_URL), {
        method,
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        body: payload ? JSON.stringify(payload) : undefined,
      });
    } catch (error) {
      throw new SandboxUnavailableError(`the sandbox did not answer ${method} ${path}: ${(error as Error).message}`);
    }
    if (!response.ok && !okStatuses.includes(response.status)) {
      throw new SandboxUnavailableError(`the sandbox answered ${response.status} to ${method} ${path}`);
    }
    return (response.status === 204 || response.status === 404 ? {} : await response.json()) as T;
  }
}
