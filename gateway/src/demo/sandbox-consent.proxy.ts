import { Controller, Get, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig, effectiveProviders } from '@pod/config';
import { Public } from '../auth/public.decorator';
import { sessionCookieName } from '../auth/session-cookie';
import { SessionsService } from '../auth/sessions.service';
import type { SignedInUser } from '../auth/signed-in-user';
import { problemPage, type ProblemPage } from '../connections/callback-page';
import { OAuthStateStore } from '../connections/oauth-state.store';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { DEMO_SELLER_GONE, DemoSandboxService } from './demo-sandbox.service';
import { ApiException } from '../http/api-exception';

const PASSED_HEADERS = ['content-type', 'location', 'cache-control'];
/** The sandbox page's own way of naming a seller: never passed on, the gateway names it. */
const TENANT_FIELD = 'sandbox_tenant';
const MAX_STATE_LENGTH = 512;

const TO_CONNECTIONS = { href: '/connections', text: 'Back to Connections' } as const;
const REFUSALS = {
  'signed-out': {
    status: 401,
    page: {
      title: 'Sign in to connect Etsy',
      problem: 'You are not signed in to PodProfit, so this sandbox consent page cannot be shown.',
      advice: 'Sign in, then go to Connections and choose Connect Etsy.',
      link: { href: '/login', text: 'Sign in' },
    },
  },
  'foreign-state': {
    status: 403,
    page: {
      title: 'Etsy connection failed',
      problem:
        'This Etsy connection was not started from your PodProfit session, or it has expired or was already used.',
      advice: 'Nothing was connected. Go back to Connections and choose Connect Etsy to try again.',
      link: TO_CONNECTIONS,
    },
  },
  'demo-ended': {
    status: 410,
    page: {
      title: 'Your demo has ended',
      problem: DEMO_SELLER_GONE,
      advice: 'A new demo comes with its own sandbox seller, already connected.',
      link: { href: '/', text: 'Go to the home page' },
    },
  },
} satisfies Record<string, { status: number; page: ProblemPage }>;

function stateOf(fields: URLSearchParams): string | null {
  const values = fields.getAll('state');
  return values.length === 1 && values[0].length > 0 && values[0].length <= MAX_STATE_LENGTH ? values[0] : null;
}

/**
 * The sandbox's Etsy consent page, served through the gateway so that it reaches the visitor's
 * browser wherever the app runs (the sandbox itself listens on loopback). It acts only for the
 * signed-in visitor, only within an Etsy authorization that this very session started (its
 * state is pending here), and only for the visitor's own sandbox seller, which the gateway
 * names in `x-sandbox-tenant` (as Etsy knows who is logged in); any seller the request names
 * is dropped. Outside demo mode these routes do not exist.
 */
@Public()
@Controller('sandbox/oauth')
export class SandboxConsentProxyController {
  constructor(
    private readonly config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly tenants: DemoSandboxService,
    private readonly states: OAuthStateStore,
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
    if (effectiveProviders(this.config).mode !== 'sandbox')
      throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    const query = new URL(req.url, 'http://gateway.invalid').searchParams;
    const form = req.method === 'POST' ? new URLSearchParams(String(req.body ?? '')) : null;
    const jwt = req.cookies?.[sessionCookieName(this.config)];
    const user = jwt ? await this.sessions.resolveJwt(jwt) : null;
    if (!user) return this.refuse(reply, 'signed-out');
    const state = stateOf(form ?? query);
    if (!state || !(await this.states.isPending(state, { userId: user.id, sessionIdHash: user.sessionIdHash })))
      return this.refuse(reply, 'foreign-state');
    try {
      await this.relay(reply, path, user, query, form);
    } catch (error) {
      if (error instanceof ApiException && error.code === 'demo_ended') return this.refuse(reply, 'demo-ended');
      throw new ApiException(
        HttpStatus.SERVICE_UNAVAILABLE,
        'sandbox_unavailable',
        'The demo sandbox is not answering. Please try again shortly.',
      );
    }
  }

  private refuse(reply: FastifyReply, why: keyof typeof REFUSALS): void {
    const refusal = REFUSALS[why];
    void reply
      .status(refusal.status)
      .header('Cache-Control', 'no-store')
      .header('Referrer-Policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(problemPage(refusal.page));
  }

  private async relay(
    reply: FastifyReply,
    path: string,
    user: SignedInUser,
    query: URLSearchParams,
    form: URLSearchParams | null,
  ): Promise<void> {
    const headers: Record<string, string> = { 'x-sandbox-tenant': await this.tenants.tenantFor(user.id) };
    const target = new URL(path, this.config.SANDBOX_URL);
    query.delete(TENANT_FIELD);
    target.search = query.toString();
    form?.delete(TENANT_FIELD);
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const upstream = await fetch(target, {
      method: form ? 'POST' : 'GET',
      headers,
      body: form?.toString(),
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
