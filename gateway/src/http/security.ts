import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmetMiddleware from 'helmet';
import { BODY_LIMITS, MAX_BODY_LIMIT_BYTES } from './body-limits';
import { isProviderWebhookRoute } from './provider-webhook-route';

/** No request of ours nests deeper; far deeper input would exhaust the stack in validation. */
export const MAX_JSON_DEPTH = 32;
/** Object keys plus array elements in one body; our largest DTO has five fields. */
export const MAX_JSON_FIELDS = 64;
/** The only path that takes a form body: the sandbox consent page's Allow/Deny (see demo/sandbox-consent.proxy.ts). */
export const SANDBOX_FORM_PATH = '/sandbox/oauth/connect/decision';

export function helmetOptions(isProduction: boolean) {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Chakra's Emotion injects <style> tags at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' as const },
    frameguard: { action: 'deny' as const },
    crossOriginOpenerPolicy: { policy: 'same-origin' as const },
    crossOriginResourcePolicy: { policy: 'same-origin' as const },
  };
}

/**
 * The same headers for a reply that never went through Fastify's hooks: errors Fastify raises
 * before routing (a malformed URL) go straight to its frameworkErrors handler.
 */
export function securityHeadersForRawReplies(
  isProduction: boolean,
): (request: FastifyRequest, reply: FastifyReply) => void {
  const setHeaders = helmetMiddleware(helmetOptions(isProduction));
  return (request, reply) => {
    setHeaders(request.raw, reply.raw, () => undefined);
    void reply.header('Cache-Control', 'no-store');
  };
}

/** Strict headers on every response: API, web app, errors. */
export async function registerSecurityHeaders(fastify: FastifyInstance, isProduction: boolean): Promise<void> {
  await fastify.register(helmet, helmetOptions(isProduction));
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') || request.url === '/healthz' || request.url === '/livez')
      reply.header('Cache-Control', 'no-store');
    reply.removeHeader('x-powered-by');
    return payload;
  });
}

/**
 * Only JSON bodies are accepted; every other content type gets 415 from Fastify. Provider
 * webhook routes receive the raw bytes instead of parsed JSON (their handler verifies the
 * signature over them first). An empty body
 * with a JSON content type (our client's body-less POSTs) parses as {}. Prototype-poisoning keys
 * are refused by Fastify's secure parser. Before anything parses or validates a body, one pass
 * over its text bounds its depth and its number of fields: validation costs time per field, and
 * no request of ours has more than a handful.
 */
export function registerJsonOnlyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  // One exception: the sandbox's consent page (demo mode) posts an HTML form through our proxy.
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMITS.consentForm },
    (request, body, done) => {
      if (request.url.split('?')[0] === SANDBOX_FORM_PATH) return done(null, body);
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
    },
  );
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: MAX_BODY_LIMIT_BYTES },
    (request, body, done) => {
      // Provider webhooks get the exact bytes: their signature is over them (provider-webhook-route.ts).
      if (isProviderWebhookRoute(request)) return done(null, body);
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      const problem = jsonShapeProblem(text, { maxDepth: MAX_JSON_DEPTH, maxFields: MAX_JSON_FIELDS });
      if (problem === 'depth')
        return done(new RequestBodyRejected('The request body is nested too deeply.'), undefined);
      if (problem === 'fields')
        return done(new RequestBodyRejected('The request body has too many fields.'), undefined);
      void parseJson(request, text, done);
    },
  );
}

/** A body refused before parsing; its message is ours and safe to show. */
export class RequestBodyRejected extends Error {
  readonly statusCode = 400;
}

/**
 * Depth (brackets) and fields (object keys plus array elements) outside strings, in one pass,
 * before anything recursive touches the input. Stops at the first bound crossed.
 */
export function jsonShapeProblem(
  text: string,
  limits: { maxDepth: number; maxFields: number },
): 'depth' | 'fields' | null {
  // Whether each open container is an array; a comma in an array starts one more element.
  const inArray = new Uint8Array(limits.maxDepth + 1);
  let depth = 0;
  let fields = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i += 1;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      depth += 1;
      if (depth > limits.maxDepth) return 'depth';
      inArray[depth] = c === 91 ? 1 : 0;
      // An array's first element (if any) counts here; the rest count at their commas.
      if (c === 91 && text.charCodeAt(nextNonSpace(text, i + 1)) !== 93) fields += 1;
    } else if (c === 125 || c === 93 /* } ] */) depth -= 1;
    else if (c === 58 /* : */ || (c === 44 /* , */ && depth > 0 && inArray[depth] === 1)) fields += 1;
    if (fields > limits.maxFields) return 'fields';
  }
  return null;
}

function nextNonSpace(text: string, from: number): number {
  let i = from;
  while (
    i < text.length &&
    (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13)
  )
    i += 1;
  return i;
}
