import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerAdmin } from './admin/routes';
import { defaultSandboxOptions, type SandboxOptions } from './config';
import { bodyUnderFault, errorBody, pathOf, targetOf } from './core/http';
import { redactQuery } from './core/request-log';
import { createState, sweepTenants, type SandboxState } from './core/state';
import { createEcbFiles, registerEcb } from './ecb/routes';
import { registerEtsyApi } from './etsy/api-routes';
import { registerEtsyOAuth } from './etsy/oauth-routes';
import { registerPrintify } from './printify/routes';

const TENANT_SWEEP_INTERVAL_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    sandbox: SandboxState;
  }
}

/**
 * The sandbox: Etsy Open API v3 (/v3, /oauth/connect), Printify API v1 (/v1) and the ECB
 * reference-rate files (/stats/eurofxref) on one host, with an admin API under /__sandbox/.
 * Written from ../shared/docs/integrations.md alone; it shares no code with the clients.
 */
export function createSandboxApp(overrides: Partial<SandboxOptions> = {}): FastifyInstance {
  const options = defaultSandboxOptions(overrides);
  const state = createState(options);
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1_048_576 });
  app.decorate('sandbox', state);
  app.decorateRequest('sandboxLog', null);
  app.decorateRequest('sandboxBodyFault', null);

  // Form bodies (the token endpoint and the consent decision), parsed without extra plugins.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 65_536 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.addHook('onRequest', async (request) => {
    const path = pathOf(request);
    const target = targetOf(path);
    if (target === 'admin' || target === 'other') return;
    const nowMs = state.nowMs();
    request.sandboxLog = state.log.add({
      at: new Date(nowMs).toISOString(),
      timestampMs: nowMs,
      target,
      method: request.method,
      path,
      query: redactQuery(new URL(request.raw.url ?? '/', 'http://sandbox')),
      status: null,
      tenantId: null,
      credential: null,
      fault: null,
      durationMs: null,
    });
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const fault = request.sandboxBodyFault;
    if (!fault) return payload;
    // The body knobs: the real answer, cut off, padded, trickled or truncated.
    const text =
      typeof payload === 'string'
        ? payload
        : Buffer.isBuffer(payload)
          ? payload.toString('utf8')
          : JSON.stringify(payload ?? '');
    return bodyUnderFault(fault, text, reply);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!request.sandboxLog) return;
    // Any request attributed to a tenant (its tokens, shop, consent page) counts as use.
    if (request.sandboxLog.tenantId) state.tenants.touch(request.sandboxLog.tenantId);
    request.sandboxLog.status = reply.statusCode;
    request.sandboxLog.durationMs = Math.round(reply.elapsedTime);
  });

  // Hung requests keep their sockets: close them when the sandbox stops.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Expired tenants go within a minute even when nobody creates a new one.
  const sweeper = setInterval(() => sweepTenants(state), TENANT_SWEEP_INTERVAL_MS);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    state.webhooks.sender.close();
    for (const socket of sockets) socket.destroy();
  });
  // Etsy deliveries name a receipt by its URL on this sandbox: the configured public URL, else
  // the address it listens on (tests listen on port 0).
  if (options.publicUrl === undefined) {
    state.selfUrl = () => {
      const address = app.server.address();
      if (!address || typeof address === 'string') return `http://127.0.0.1:${options.port}`;
      const host =
        address.address === '0.0.0.0' || address.address === '::'
          ? '127.0.0.1'
          : address.family === 'IPv6'
            ? `[${address.address}]`
            : address.address;
      return `http://${host}:${address.port}`;
    };
  }

  app.setNotFoundHandler(async (request, reply) => {
    const target = targetOf(pathOf(request));
    return reply
      .code(404)
      .send(
        errorBody(
          target,
          404,
          target === 'printify' ? 'Not found.' : `No route for ${request.method} ${pathOf(request)}`,
        ),
      );
  });
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    const target = targetOf(pathOf(request));
    if (status === 500)
      process.stderr.write(`sandbox: ${request.method} ${pathOf(request)} failed: ${error.stack ?? error.message}\n`);
    return reply.code(status).send(errorBody(target, status, status === 500 ? 'Internal Server Error' : error.message));
  });

  const ecbFiles = createEcbFiles(state);
  const etsy = (scope: FastifyInstance) => {
    registerEtsyOAuth(scope, state);
    registerEtsyApi(scope, state);
  };
  const printify = (scope: FastifyInstance) => registerPrintify(scope, state);
  const ecb = (scope: FastifyInstance) => registerEcb(scope, state, ecbFiles);
  // The real paths at the root, and each provider again under its alias prefix.
  etsy(app);
  printify(app);
  ecb(app);
  void app.register(async (scope) => etsy(scope), { prefix: '/etsy' });
  void app.register(async (scope) => printify(scope), { prefix: '/printify' });
  void app.register(async (scope) => ecb(scope), { prefix: '/ecb' });
  registerAdmin(app, state);

  if (options.defaultTenant) state.tenants.create({ id: 'default', permanent: true }, state.nowSeconds());
  return app;
}
