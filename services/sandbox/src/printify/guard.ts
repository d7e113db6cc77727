import type { FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, fingerprint, noteRequest, pathOf } from '../core/http';
import type { SandboxState } from '../core/state';
import type { Tenant } from '../data/tenant';

/** Printify's documented error shape; the 401/403/429 bodies themselves are UNCONFIRMED. */
export function error(reply: FastifyReply, code: number, message: string): FastifyReply {
  return reply.code(code).send({ status: 'error', code, message });
}

/** The documented validation error (b.6): code 8103 with a JSON-encoded field map in `reason`. */
export function validationError(reply: FastifyReply, field: string, problem: string): FastifyReply {
  return reply.code(400).send({
    status: 'error',
    code: 8103,
    message: 'Validation failed.',
    errors: { reason: JSON.stringify({ [field]: [problem] }), code: 8103 },
  });
}

/** Fault knobs, User-Agent, bearer token and the per-account rate limit. Null when answered. */
export function guardPrintify(state: SandboxState, request: FastifyRequest, reply: FastifyReply): Tenant | null {
  const header = request.headers.authorization ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null;
  const credential = token ? state.tenants.printifyCredential(token) : undefined;
  noteRequest(request, credential?.tenantId ?? null, token ? `printify-token:${fingerprint(token)}` : null);
  state.scheduledMutations.onRequest(state, 'printify', pathOf(request), credential?.tenantId ?? null);
  const fault = state.faults.take('printify', pathOf(request), credential?.tenantId ?? null);
  if (fault && applyFault(fault, request, reply)) return null;
  if (!request.headers['user-agent']) {
    error(reply, 400, 'The User-Agent header is required.');
    return null;
  }
  const tenant = credential && !credential.expired ? state.tenants.get(credential.tenantId) : undefined;
  if (!tenant) {
    error(reply, 401, 'Unauthenticated.');
    return null;
  }
  if (request.sandboxLog)
    request.sandboxLog.credential = `printify-account:${tenant.printifyAccountId} token:${fingerprint(token as string)}`;
  // 600 requests a minute per merchant account: all of the account's tokens share it.
  const limit = state.printifyLimiter.hit(`printify-account:${tenant.printifyAccountId}`, state.nowMs());
  if (!limit.allowed) {
    reply.header('retry-after', String(limit.retryAfterSeconds ?? 1));
    error(reply, 429, 'Too Many Attempts.');
    return null;
  }
  return tenant;
}
