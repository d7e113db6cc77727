import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import type { AppConfig } from '@pod/config';
import { redisEventsTransportOptions } from '@pod/queue';
import { createLogger } from '@pod/observability';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { registerBullBoard } from './admin/bull-board';
import { OperatorThrottle } from './admin/operator-throttle';
import { AppModule } from './app.module';
import { SessionGuard } from './auth/session.guard';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { registerPublicOriginRedirect } from './http/public-origin';
import { SameOriginGuard } from './http/same-origin.guard';
import { applyRouteBodyLimits, MAX_BODY_LIMIT_BYTES } from './http/body-limits';
import { FrameworkErrors } from './http/framework-errors';
import { registerJsonOnlyParser, registerSecurityHeaders } from './http/security';
import { SpaFallback } from './http/static-web';
import { NoBodyInterceptor } from './http/no-body.interceptor';
import { createValidationPipe } from './http/validation-pipe';
import { USER_TURN_MAX_WAIT_MS, UserConcurrencyLimiter } from './http/user-concurrency';
import { registerUserTurns, UserTurnInterceptor } from './http/user-turns';
import { sessionCookieName } from './auth/session-cookie';

export interface GatewayOptions {
  logger?: Logger;
}

/** Builds the gateway (not yet listening): used by main.ts and by the tests alike. */
export async function createGateway(config: AppConfig, options: GatewayOptions = {}): Promise<NestFastifyApplication> {
  const logger = options.logger ?? createLogger(config, { service: 'gateway' });
  const frameworkErrors = new FrameworkErrors(config.isProduction);
  const adapter = new FastifyAdapter({
    // Each route has its own, smaller limit (see body-limits.ts); this bounds the rest.
    bodyLimit: MAX_BODY_LIMIT_BYTES,
    frameworkErrors: frameworkErrors.handle,
    // Bounds a whole request (a trickled body included), not only its headers.
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    // Node checks header and request timeouts on this interval (30 s by default): check often
    // enough that a trickling client is cut near its bound.
    serverFactory: (handler: Parameters<typeof createServer>[1]) =>
      createServer(
        {
          connectionsCheckingInterval: Math.min(1_000, config.HTTP_HEADERS_TIMEOUT_MS),
          headersTimeout: Math.min(config.HTTP_HEADERS_TIMEOUT_MS, config.HTTP_REQUEST_TIMEOUT_MS),
          requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
        },
        handler,
      ),
    connectionTimeout: 60_000,
    keepAliveTimeout: 5_000,
    routerOptions: { maxParamLength: 200 },
    // Behind proxies (an Ingress) the socket's peer is the proxy: TRUST_PROXY says which peers'
    // X-Forwarded-For / -Proto to believe, so per-IP limits count clients, not the proxy.
    trustProxy: config.trustedProxies,
    genReqId: (req: IncomingMessage) => {
      const id = randomUUID();
      (req as IncomingMessage & { id: string }).id = id;
      return id;
    },
    requestIdHeader: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, logger), adapter, {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoNestLogger));
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonOnlyParser(fastify);
  applyRouteBodyLimits(fastify);
  await registerSecurityHeaders(fastify, config.isProduction);
  await fastify.register(fastifyCookie);
  registerPublicOriginRedirect(fastify, config.publicOrigin);
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Before the web app's static files: the board brings its own @fastify/static (see bull-board.ts).
  await registerBullBoard(
    fastify,
    config,
    (name) => app.get<Queue>(getQueueToken(name), { strict: false }),
    app.get(OperatorThrottle, { strict: false }),
  );
  const spa = await SpaFallback.register(fastify, config.WEB_DIST_DIR);

  app.setGlobalPrefix('api', {
    exclude: ['sandbox/oauth/connect', 'sandbox/oauth/connect/decision', 'healthz', 'livez'],
  });
  const errorFilter = new AllExceptionsFilter(logger, spa);
  frameworkErrors.useFilter(errorFilter);
  app.useGlobalFilters(errorFilter);
  app.useGlobalGuards(new SameOriginGuard(config.publicOrigin), app.get(SessionGuard));
  app.useGlobalPipes(createValidationPipe());
  // One user's requests take at most userRequestConcurrency of the pool's connections (issue 16).
  const jwt = app.get(JwtService, { strict: false });
  registerUserTurns(fastify, {
    limiter: new UserConcurrencyLimiter({
      perUser: config.userRequestConcurrency,
      queue: config.USER_REQUEST_QUEUE,
      maxWaitMs: USER_TURN_MAX_WAIT_MS,
    }),
    cookieName: sessionCookieName(config),
    subjectOf: (token) => verifiedSubject(jwt, token),
    refuse: (error, request, reply) => errorFilter.replyWithError(error, request, reply),
  });
  app.useGlobalInterceptors(new UserTurnInterceptor(), new NoBodyInterceptor());
  // Domain events (e.g. job.completed) arrive over the Redis transport; BullMQ carries the work.
  app.connectMicroservice(redisEventsTransportOptions(config));
  app.enableShutdownHooks();
  return app;
}

/** The subject of a session JWT whose signature and expiry check out, else null. */
function verifiedSubject(jwt: JwtService, token: string): string | null {
  try {
    const { sub } = jwt.verify<{ sub?: unknown }>(token, { algorithms: ['HS256'] });
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
