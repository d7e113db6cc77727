import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** No request of ours nests deeper; far deeper input would exhaust the stack in validation. */
export const MAX_JSON_DEPTH = 32;
/** The only path that takes a form body: the sandbox consent page's Allow/Deny (see demo/sandbox-consent.proxy.ts). */
export const SANDBOX_FORM_PATH = '/sandbox/oauth/connect/decision';

/** Strict headers on every response: API, web app, errors. */
export async function registerSecurityHeaders(fastify: FastifyInstance, isProduction: boolean): Promise<void> {
  await fastify.register(helmet, {
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
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') || request.url === '/healthz' || request.url === '/livez') reply.header('Cache-Control', 'no-store');
    reply.removeHeader('x-powered-by');
    return payload;
  });
}

/**
 * Only JSON bodies are accepted; every other content type gets 415 from Fastify. An empty body
 * with a JSON content type (our client's body-less POSTs) parses as {}. Prototype-poisoning keys
 * are refused by Fastify's secure parser.
 */
export function registerJsonOnlyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  // One exception: the sandbox's consent page (demo mode) posts an HTML form through our proxy.
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (request, body, done) => {
      if (request.url.split('?')[0] === SANDBOX_FORM_PATH) return done(null, body);
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
    },
  );
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, {});
      if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
        return done(Object.assign(new Error('The request body is nested too deeply.'), { statusCode: 400 }), undefined);
      }
      void parseJson(request, text, done);
    },
  );
}

/** Bracket depth outside strings, in one pass, before anything recursive touches the input. */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i += 1;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91 /* { [ */) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (c === 125 || c === 93 /* } ] */) depth -= 1;
  }
  return false;
}
