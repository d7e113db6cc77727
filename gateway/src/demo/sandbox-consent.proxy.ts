import { Controller, Get, NotFoundException, Post, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, effectiveProviders } from '@pod/config';
import { Public } from '../auth/public.decorator';
import { sessionCookieName } from '../auth/session-cookie';
import { SessionsService } from '../auth/sessions.service';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { DemoSandboxService } from './demo-sandbox.service';

const PASSED_HEADERS = ['content-type', 'location', 'cache-control'];
/** The sandbox page's own way of naming a seller (query or form field); it beats the header. */
const TENANT_FIELD = 'sandbox_tenant';

function withoutField(form: string, field: string): string {
  const params = new URLSearchParams(form);
  params.delete(field);
  return params.toString();
}

/**
 * The sandbox's Etsy consent page, served through the gateway so that it reaches the visitor's
 * browser wherever the app runs (the sandbox itself listens on loopback). The signed-in
 * visitor's own sandbox seller is named in `x-sandbox-tenant`, as Etsy knows who is logged in.
 * Outside demo mode these routes do not exist.
 */
@Public()
@Controller('sandbox/oauth')
export class SandboxConsentProxyController {
  constructor(
    private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly tenants: DemoSandboxService,
  ) {}

  @Get('connect')
  page(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.forward(req, reply, '/oauth/connect');
  }

  @Post('connect/decision')
  @BodyLimit(BODY_LIMITS.consentForm)
  decide(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.forward(req, reply, '/oauth/connect/decision');
  }

  private async forward(req: FastifyRequest, reply: FastifyReply, path: string): Promise<void> {
    if (effectiveProviders(this.config).mode !== 'sandbox') throw new NotFoundException();
    try {
      await this.relay(req, reply, path);
    } catch (error) {
      if (error instanceof NotFoundException) throw error;
      throw new ServiceUnavailableException('The demo sandbox is not answering. Please try again shortly.');
    }
  }

  private async relay(req: FastifyRequest, reply: FastifyReply, path: string): Promise<void> {
    const target = new URL(path, this.config.SANDBOX_URL);
    target.search = new URL(req.url, 'http://gateway.invalid').search;
    const headers: Record<string, string> = {};
    const jwt = req.cookies?.[sessionCookieName(this.config)];
    const user = jwt ? await this.sessions.resolveJwt(jwt) : null;
    let body = req.method === 'POST' ? String(req.body ?? '') : undefined;
    if (user) {
      headers['x-sandbox-tenant'] = await this.tenants.tenantFor(user.id);
      // A signed-in visitor grants as their own seller only: the page's "choose another seller"
      // field would otherwise let them pick someone else's sandbox shop.
      target.searchParams.delete(TENANT_FIELD);
      if (body !== undefined) body = withoutField(body, TENANT_FIELD);
    }
    if (req.method === 'POST') headers['content-type'] = 'application/x-www-form-urlencoded';
    const upstream = await fetch(target, {
      method: req.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    void reply.status(upstream.status).header('Referrer-Policy', 'no-referrer');
    for (const name of PASSED_HEADERS) {
      const value = upstream.headers.get(name);
      if (value) void reply.header(name, value);
    }
    void reply.send(Buffer.from(await upstream.arrayBuffer()));
  }
}
