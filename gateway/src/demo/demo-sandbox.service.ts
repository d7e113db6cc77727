import { randomBytes } from 'node:crypto';
import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import type { DemoSandbox } from '@pod/contracts';
import { UserEntity } from '@pod/db';
import type { SignedInUser } from '../auth/signed-in-user';
import { SandboxAdminClient } from './sandbox-admin.client';

/** Each account's own sandbox seller in demo mode (made on first need for accounts that signed up normally). */
@Injectable()
export class DemoSandboxService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly sandbox: SandboxAdminClient,
  ) {}

  async tenantFor(userId: string): Promise<string> {
    const user = await this.users.findOne({ where: { id: userId }, select: { id: true, sandboxTenantId: true } });
    if (!user) throw new NotFoundException();
    if (user.sandboxTenantId) return user.sandboxTenantId;
    const tenantId = `user-${randomBytes(9).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    await this.sandbox.createTenant({ id: tenantId, seed: tenantId, shopCurrency: 'USD', months: 6, ordersPerMonth: 120, printifyShops: 2 });
    // Two requests at once: the first one stored wins, the other tenant is dropped.
    const stored = await this.users.update({ id: userId, sandboxTenantId: IsNull() }, { sandboxTenantId: tenantId });
    if (stored.affected) return tenantId;
    await this.sandbox.deleteTenant(tenantId).catch(() => undefined);
    return (await this.users.findOneOrFail({ where: { id: userId }, select: { id: true, sandboxTenantId: true } })).sandboxTenantId as string;
  }

  async detailsFor(user: SignedInUser): Promise<DemoSandbox> {
    const tenant = await this.sandbox.getTenant(await this.tenantFor(user.id));
    if (!tenant) throw new NotFoundException('Your sandbox seller is gone; sign in to the demo again.');
    return { shopName: tenant.etsy.shopName, printifyToken: tenant.printify.token, printifyShops: tenant.printify.shops };
  }
}
