import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_FAULT_KINDS, STATE_FAULT_KINDS, type FaultSpec, type RecordPatch } from '../core/faults';
import { makeRoomForTenant, removeTenant, type SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';
import { checkAuthorize, grantCode } from '../etsy/oauth-routes';
import { SELLER_PROFILE_NAMES } from '../data/seller-profiles';
import { registerMutations } from './mutations';
import {
  BadInput,
  objectBody,
  optionalBoolean,
  optionalEnum,
  optionalInt,
  optionalNumber,
  optionalString,
  requiredString,
  type Body,
} from './validate';
import { registerWebhookAdmin } from './webhooks';

/** The admin API under /__sandbox/ (bearer SANDBOX_ADMIN_TOKEN): tenants, grants, faults, request log. */
export function registerAdmin(app: FastifyInstance, state: SandboxState): void {
  const expected = Buffer.from(`Bearer ${state.options.adminToken}`);
  const authorized = (request: FastifyRequest): boolean => {
    const given = Buffer.from(request.headers.authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const admin =
    <T>(handler: (request: FastifyRequest, reply: FastifyReply) => T) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      if (!authorized(request))
        return reply.code(401).send({ error: 'admin token required (Authorization: Bearer <SANDBOX_ADMIN_TOKEN>)' });
      try {
        return await handler(request, reply);
      } catch (error) {
        if (error instanceof BadInput) return reply.code(400).send({ error: error.message });
        throw error;
      }
    };
  const tenantOr404 = (request: FastifyRequest, reply: FastifyReply): Tenant | null => {
    const tenant = state.tenants.get((request.params as { id: string }).id);
    if (!tenant) void reply.code(404).send({ error: 'no such tenant' });
    else state.tenants.touch(tenant.id);
    return tenant ?? null;
  };

  app.get('/__sandbox/healthz', async () => ({ status: 'ok', tenants: state.tenants.size }));

  app.post(
    '/__sandbox/tenants',
    admin((request, reply) => {
      const body = objectBody(request.body);
      const input = {
        id: optionalString(body, 'id', /^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-" (at most 64)'),
        seed: optionalString(body, 'seed', /^[\s\S]{1,200}$/, 'a string of 1 to 200 characters'),
        profile: optionalEnum(body, 'profile', SELLER_PROFILE_NAMES),
        shopCurrency: optionalEnum(body, 'shopCurrency', ['USD', 'EUR', 'GBP'] as const),
        paymentCurrency: optionalEnum(body, 'paymentCurrency', ['USD', 'EUR', 'GBP'] as const),
        vatRegistered: optionalBoolean(body, 'vatRegistered'),
        months: optionalInt(body, 'months', 1, 60),
        ordersPerMonth: optionalInt(body, 'ordersPerMonth', 0, 250_000),
        printifyShops: optionalInt(body, 'printifyShops', 1, 4),
        printifyEnvelope: optionalEnum(body, 'printifyEnvelope', ['full', 'minimal'] as const),
        printifyLineCost: optionalEnum(body, 'printifyLineCost', ['per_unit', 'per_line'] as const),
        salesLast365Usd: optionalInt(body, 'salesLast365Usd', 0, 1_000_000_000),
        private: optionalBoolean(body, 'private'),
        lifetimeSeconds: optionalInt(body, 'lifetimeSeconds', 1, 365 * 86_400),
      };
      const orders = (input.months ?? 6) * (input.ordersPerMonth ?? 120);
      if (orders > state.options.maxOrdersPerTenant)
        throw new BadInput(`months × ordersPerMonth must be at most ${state.options.maxOrdersPerTenant}`);
      if (input.id && state.tenants.get(input.id)) return reply.code(409).send({ error: `tenant ${input.id} exists` });
      // A full sandbox never turns a new seller away: the tenant unused for longest makes room.
      makeRoomForTenant(state);
      const { tenant, printifyToken } = state.tenants.create(input, state.nowSeconds());
      return reply.code(201).send(describe(state, tenant, [printifyToken]));
    }),
  );

  app.get(
    '/__sandbox/tenants',
    admin(() => ({
      tenants: state.tenants.list().map((tenant) => ({ tenantId: tenant.id, ...lifeJson(state, tenant.id) })),
    })),
  );

  app.get(
    '/__sandbox/tenants/:id',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      return tenant ? describe(state, tenant, state.tenants.printifyTokensOf(tenant.id)) : reply;
    }),
  );

  app.delete(
    '/__sandbox/tenants/:id',
    admin((request, reply) => {
      const id = (request.params as { id: string }).id;
      if (!removeTenant(state, id)) return reply.code(404).send({ error: 'no such tenant' });
      return reply.code(204).send();
    }),
  );

  app.post(
    '/__sandbox/tenants/:id/grant',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      const body = objectBody(request.body);
      const check = checkAuthorize(state, {
        response_type: 'code',
        client_id: requiredString(body, 'clientId'),
        redirect_uri: requiredString(body, 'redirectUri'),
        scope: requiredString(body, 'scope'),
        state: requiredString(body, 'state'),
        code_challenge: requiredString(body, 'codeChallenge'),
        code_challenge_method: requiredString(body, 'codeChallengeMethod'),
      });
      if (check.kind === 'page-error')
        return reply.code(400).send({ error: 'invalid_request', error_description: check.message });
      if (check.kind === 'redirect-error')
        return reply.code(400).send({ error: check.error, error_description: check.description });
      const granted = grantCode(state, tenant, check.params);
      return { code: granted.code, state: check.params.state, redirectUrl: granted.redirectUrl };
    }),
  );

  app.post(
    '/__sandbox/tenants/:id/printify-tokens',
    admin((request, reply) => {
      const tenant = tenantOr404(request, reply);
      if (!tenant) return reply;
      return reply.code(201).send({ token: state.tenants.addPrintifyToken(tenant.id) });
    }),
  );

  app.post(
    '/__sandbox/faults',
    admin((request, reply) => {
      const body = objectBody(request.body);
      const target = optionalEnum(body, 'target', ['etsy', 'printify', 'ecb'] as const);
      if (!target) throw new BadInput('target is required: etsy, printify or ecb');
      const kind = optionalEnum(body, 'kind', [...REQUEST_FAULT_KINDS, ...STATE_FAULT_KINDS] as const);
      if (!kind) throw new BadInput(`kind is required: ${[...REQUEST_FAULT_KINDS, ...STATE_FAULT_KINDS].join(', ')}`);
      const match = objectBody(body.match);
      const tenantId = optionalString(match, 'tenantId', /^.{1,64}$/, 'a tenant id');
      if (kind === 'expire-access-token') {
        const affected =
          target === 'printify'
            ? state.tenants.expirePrintifyTokens(tenantId)
            : state.oauth.expireAccessTokens(tenantId);
        return { kind, target, affected };
      }
      if (kind === 'revoke-refresh-token') {
        if (target !== 'etsy') throw new BadInput('revoke-refresh-token applies to etsy only');
        return { kind, target, affected: state.oauth.revokeRefreshTokens(tenantId) };
      }
      const spec: FaultSpec = {
        target,
        kind,
        match: {
          pathPrefix: optionalString(match, 'pathPrefix', /^\/.{0,300}$/, 'a path starting with "/"'),
          tenantId,
        },
        count: optionalInt(body, 'count', 1, 1_000_000) ?? 1,
        skip: optionalInt(body, 'skip', 0, 1_000_000) ?? 0,
        retryAfterSeconds: optionalInt(body, 'retryAfterSeconds', 0, 86_400 * 7),
        status: optionalInt(body, 'status', 300, 599),
        location: optionalString(body, 'location', /^https?:\/\/.{1,300}$/, 'an http(s) URL'),
        bytesPerSecond: optionalInt(body, 'bytesPerSecond', 1, 1_000_000),
        bytes: optionalInt(body, 'bytes', 1, 64 * 1024 * 1024),
        patches: kind === 'patch-records' ? recordPatches(body.patches) : undefined,
      };
      if (spec.kind === '5xx' && spec.status !== undefined && spec.status < 500)
        throw new BadInput('status must be 500-599 for 5xx');
      return reply.code(201).send(state.faults.add(spec));
    }),
  );
  app.get(
    '/__sandbox/faults',
    admin(() => ({ faults: state.faults.list() })),
  );
  app.delete(
    '/__sandbox/faults',
    admin((_request, reply) => {
      state.faults.clear();
      return reply.code(204).send();
    }),
  );

  app.get(
    '/__sandbox/requests',
    admin((request) => {
      const query = request.query as Record<string, string | undefined>;
      const num = (value: string | undefined) =>
        value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
      const since =
        query.since === undefined ? undefined : (num(query.since) ?? (Date.parse(query.since) || undefined));
      return {
        requests: state.log.list({
          tenantId: query.tenantId || undefined,
          sinceMs: since,
          afterSeq: num(query.afterSeq),
          target: query.target || undefined,
          limit: num(query.limit),
        }),
      };
    }),
  );
  app.delete(
    '/__sandbox/requests',
    admin((_request, reply) => {
      state.log.clear();
      return reply.code(204).send();
    }),
  );

  app.get(
    '/__sandbox/settings',
    admin(() => state.live),
  );
  app.patch(
    '/__sandbox/settings',
    admin((request) => {
      const body: Body = objectBody(request.body);
      state.live.accessTokenTtlSeconds =
        optionalInt(body, 'accessTokenTtlSeconds', 1, 30 * 86_400) ?? state.live.accessTokenTtlSeconds;
      state.live.etsyQps = optionalInt(body, 'etsyQps', 1, 100_000) ?? state.live.etsyQps;
      state.live.etsyQpd = optionalInt(body, 'etsyQpd', 1, 100_000_000) ?? state.live.etsyQpd;
      state.live.printifyRpm = optionalInt(body, 'printifyRpm', 1, 1_000_000) ?? state.live.printifyRpm;
      state.live.webhookTimeScale =
        optionalNumber(body, 'webhookTimeScale', 0.000001, 1000) ?? state.live.webhookTimeScale;
      if (body.resetRateLimits === true) {
        state.etsyLimiter.clear();
        state.printifyLimiter.clear();
      }
      return state.live;
    }),
  );

  registerMutations(app, state, admin, tenantOr404);
  registerWebhookAdmin(app, state, admin, tenantOr404);
}

function recordPatches(value: unknown): RecordPatch[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > 1_000)
    throw new BadInput('patches must be an array of 1 to 1000 {index, path, op, value?}');
  return value.map((item, n) => {
    const patch = objectBody(item);
    const index = optionalInt(patch, 'index', 0, 1_000);
    const op = optionalEnum(patch, 'op', ['set', 'delete'] as const);
    const path = patch.path;
    if (index === undefined || !op) throw new BadInput(`patches[${n}] needs an index and an op (set or delete)`);
    if (
      !Array.isArray(path) ||
      path.length === 0 ||
      path.length > 20 ||
      path.some((key) => typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key) && key >= 0))
    ) {
      throw new BadInput(`patches[${n}].path must be 1 to 20 keys (strings or indexes)`);
    }
    return { index, op, path: path as (string | number)[], value: patch.value };
  });
}

function lifeJson(state: SandboxState, tenantId: string) {
  const life = state.tenants.lifeOf(tenantId);
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    createdAt: iso(life?.createdAtMs),
    lastUsedAt: iso(life?.lastUsedMs),
    expiresAt: life?.permanent ? null : iso(life?.expiresAtMs),
    private: life?.private ?? false,
  };
}

function describe(state: SandboxState, tenant: Tenant, printifyTokens: string[]) {
  return {
    tenantId: tenant.id,
    etsy: {
      userId: tenant.shop.userId,
      shopId: tenant.shop.shopId,
      shopName: tenant.shop.shopName,
      loginName: tenant.shop.loginName,
      currency: tenant.shop.currency,
      paymentCurrency: tenant.shop.paymentCurrency,
      country: tenant.shop.country,
      vatRegistered: tenant.shop.vatRegistered,
    },
    printify: { token: printifyTokens[0] ?? null, accountId: tenant.printifyAccountId, shops: tenant.printifyShops },
    orders: tenant.count,
    asOf: tenant.settings.asOf,
    printifyEnvelope: tenant.settings.printifyEnvelope,
    printifyLineCost: tenant.settings.printifyLineCost,
    salesLast365Usd: tenant.shop.salesLast365Usd,
    ...lifeJson(state, tenant.id),
  };
}
