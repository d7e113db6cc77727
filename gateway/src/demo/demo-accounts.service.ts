import { randomBytes } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AppConfig, effectiveProviders } from '@pod/config';
import type { PublicUser } from '@pod/contracts';
import { UsersRepository, type UserEntity } from '@pod/db';
import { PasswordsService } from '../auth/passwords.service';
import { SessionsService } from '../auth/sessions.service';
import { publicUser, type SignedInUser } from '../auth/signed-in-user';
import { EtsyConnectService } from '../connections/etsy-connect.service';
import { PrintifyConnectService } from '../connections/printify-connect.service';
import { SandboxAdminClient, type SandboxTenant } from './sandbox-admin.client';
import { ApiException } from '../http/api-exception';

export const DEMO_LIFETIME_MS = 24 * 3600 * 1000;
const DEMO_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;

/**
 * "Try the demo": a fresh account per visitor with its own sandbox seller, connected to Etsy
 * through the real OAuth code exchange (the sandbox grants instead of a click on Allow) and to
 * Printify with the seller's token, exactly as a person would connect them.
 */
@Injectable()
export class DemoAccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly etsy: EtsyConnectService,
    private readonly printify: PrintifyConnectService,
    private readonly sandbox: SandboxAdminClient,
    private readonly config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(DemoAccountsService.name);
  }

  get enabled(): boolean {
    return effectiveProviders(this.config).mode === 'sandbox';
  }

  async create(now = new Date()): Promise<{ user: PublicUser; session: { jwt: string; maxAgeSeconds: number } }> {
    const suffix = randomBytes(9)
      .toString('base64url')
      .toLowerCase()
      .replace(/[^a-z0-9]/g, 'x');
    const tenantId = `demo-${suffix}`;
    let user: UserEntity | null = null;
    try {
      const tenant = await this.sandbox.createTenant({
        id: tenantId,
        seed: tenantId,
        shopCurrency: DEMO_CURRENCIES[randomBytes(1)[0] % DEMO_CURRENCIES.length],
        months: 6,
        ordersPerMonth: 120,
        printifyShops: 2,
        private: true,
        // The sandbox drops the seller when the account expires, even if our cleanup is late.
        lifetimeSeconds: DEMO_LIFETIME_MS / 1000,
      });
      user = await this.users.create({
        email: `demo-${suffix}@demo.podprofit.app`,
        // Nobody knows this password: a demo account is reached only through its session.
        passwordHash: await this.passwords.hash(randomBytes(32).toString('base64url')),
        firstName: 'Demo',
        lastName: 'Seller',
        isDemo: true,
        demoExpiresAt: new Date(now.getTime() + DEMO_LIFETIME_MS),
        sandboxTenantId: tenant.tenantId,
      });
      if (!user) throw new Error('the random demo email was taken');
      const session = await this.sessions.start(user.id, now);
      const signedIn = await this.sessions.resolveJwt(session.jwt, now);
      if (!signedIn) throw new Error('the new demo session did not resolve');
      await this.connectEtsy(signedIn, tenant);
      await this.connectPrintify(signedIn, tenant);
      this.logger.info({ event: 'demo.created', userId: user.id }, 'demo account created');
      return { user: publicUser({ ...user, currency: user.displayCurrency }), session };
    } catch (error) {
      this.logger.error(
        { event: 'demo.failed', err: { name: (error as Error)?.name, message: (error as Error)?.message } },
        'demo account could not be created',
      );
      if (user) await this.users.delete(user.id).catch(() => undefined);
      await this.sandbox.deleteTenant(tenantId).catch(() => undefined);
      throw new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE,
        'demo_unavailable',
        'The demo is unavailable right now. Please try again in a moment.',
      );
    }
  }

  /** The real flow: our state and PKCE pair, the sandbox's grant, our callback handling. */
  private async connectEtsy(user: SignedInUser, tenant: SandboxTenant): Promise<void> {
    const { authUrl } = await this.etsy.start(user);
    const query = new URL(authUrl).searchParams;
    const code = await this.sandbox.grant(tenant.tenantId, {
      clientId: query.get('client_id') ?? '',
      redirectUri: query.get('redirect_uri') ?? '',
      scope: query.get('scope') ?? '',
      state: query.get('state') ?? '',
      codeChallenge: query.get('code_challenge') ?? '',
      codeChallengeMethod: query.get('code_challenge_method') ?? '',
    });
    const outcome = await this.etsy.finish(user, { code, state: query.get('state') ?? undefined });
    if (outcome.kind !== 'redirect' || !outcome.location.endsWith('etsy=connected')) {
      throw new Error(
        `the sandbox Etsy connection did not complete (${outcome.kind === 'redirect' ? outcome.location : outcome.reason})`,
      );
    }
  }

  private async connectPrintify(user: SignedInUser, tenant: SandboxTenant): Promise<void> {
    const shop =
      tenant.printify.shops.find((s) => s.sales_channel.toLowerCase() === 'etsy') ?? tenant.printify.shops[0];
    if (!shop) throw new Error('the sandbox seller has no Printify shop');
    await this.printify.connect(user, { token: tenant.printify.token, shopId: String(shop.id) });
  }
}
