import { randomBytes } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import type { DemoSandbox } from '@pod/contracts';
import { UsersRepository } from '@pod/db';
import type { SignedInUser } from '../auth/signed-in-user';
import { SandboxAdminClient, SandboxUnavailableError } from './sandbox-admin.client';
import { ApiException } from '../http/api-exception';

/** What a demo visitor whose sandbox seller is gone is told (the demo cleanup then removes the account). */
export const DEMO_SELLER_GONE =
  'Your demo has ended: its sandbox seller was removed to make room for new visitors. Start the demo again from the home page.';

/**
 * Each account's own sandbox seller in demo mode (made on first need for accounts that signed
 * up normally). The sandbox removes sellers that sit idle and, when full, the one unused for
 * longest: an ordinary account then simply gets a new one; a demo account's demo has ended.
 */
@Injectable()
export class DemoSandboxService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sandbox: SandboxAdminClient,
  ) {}

  /** The user's live sandbox seller; throws ApiException `demo_ended` for a demo account whose seller was removed. */
  async tenantFor(userId: string): Promise<string> {
    const user = await this.users.sandboxTenantOf(userId);
    if (!user) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    if (user.sandboxTenantId && (await this.sandbox.getTenant(user.sandboxTenantId))) return user.sandboxTenantId;
    if (user.isDemo) throw demoEnded();
    const tenantId = `user-${randomBytes(9)
      .toString('base64url')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x')}`;
    await this.sandbox.createTenant({
      id: tenantId,
      seed: tenantId,
      shopCurrency: 'USD',
      months: 6,
      ordersPerMonth: 120,
      printifyShops: 2,
      private: true,
    });
    // Two requests at once: the first one stored wins, the other tenant is dropped.
    if (await this.users.replaceSandboxTenant(userId, user.sandboxTenantId, tenantId)) return tenantId;
    await this.sandbox.deleteTenant(tenantId).catch(() => undefined);
    const winner = (await this.users.sandboxTenantOf(userId))?.sandboxTenantId;
    if (!winner) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    return winner;
  }

  async detailsFor(user: SignedInUser): Promise<DemoSandbox> {
    try {
      const tenant = await this.sandbox.getTenant(await this.tenantFor(user.id));
      if (!tenant) throw demoEnded();
      return {
        shopName: tenant.etsy.shopName,
        printifyToken: tenant.printify.token,
        printifyShops: tenant.printify.shops,
      };
    } catch (error) {
      if (error instanceof SandboxUnavailableError)
        throw new ApiException(
          HttpStatus.SERVICE_UNAVAILABLE,
          'sandbox_unavailable',
          'The demo sandbox is not answering. Please try again shortly.',
        );
      throw error;
    }
  }
}

const demoEnded = () => new ApiException(HttpStatus.GONE, 'demo_ended', DEMO_SELLER_GONE);
