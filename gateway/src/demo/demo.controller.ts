import { Controller, Get, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '@pod/config';
import type { AuthResponse, DemoSandbox } from '@pod/contracts';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import { Public } from '../auth/public.decorator';
import { sessionCookieName, sessionCookieOptions } from '../auth/session-cookie';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { DemoAccountsService } from './demo-accounts.service';
import { DemoSandboxService } from './demo-sandbox.service';
import { ApiException } from '../http/api-exception';

@Controller()
export class DemoController {
  constructor(
    private readonly demo: DemoAccountsService,
    private readonly sandbox: DemoSandboxService,
    private readonly throttle: AbuseThrottleService,
    private readonly config: AppConfig,
  ) {}

  /** "Try the demo": only without real Etsy credentials; answers 404 as if absent otherwise. */
  @Public()
  @Post('auth/dev-login')
  @HttpCode(201)
  async devLogin(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<AuthResponse> {
    if (!this.demo.enabled) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    await this.throttle.assertDemoAllowed(req.ip);
    const { user, session } = await this.demo.create();
    void reply.setCookie(
      sessionCookieName(this.config),
      session.jwt,
      sessionCookieOptions(this.config, session.maxAgeSeconds),
    );
    return { user };
  }

  /** What a demo visitor needs to reconnect by hand: the sandbox seller's Printify token (a sandbox value, not a secret of anyone's). */
  @Get('demo/sandbox')
  sandboxDetails(@CurrentUser() user: SignedInUser): Promise<DemoSandbox> {
    if (!this.demo.enabled) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    return this.sandbox.detailsFor(user);
  }
}
