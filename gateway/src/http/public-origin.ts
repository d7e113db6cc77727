import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Names one machine answers to: a browser on any of them talks to the same local gateway. */
const LOCAL_HOST_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Never redirected: the API (its clients follow no redirects for us) and the probes. */
const NOT_PAGES = /^\/(api|healthz|livez)(\/|\?|$)/;

/**
 * The app has one public origin. Cookies belong to a host name, so a visitor who opened
 * http://127.0.0.1:5000 while the public origin is http://localhost:5000 would sign in on one
 * name and come back from Etsy's OAuth redirect on the other, signed out. When the public
 * origin is local, a page request (GET/HEAD outside /api and the probes) arriving on another
 * local name is sent to the same path and query on the public origin first.
 *
 * Any other Host is served as it is, never redirected: the redirect target is only ever the
 * configured origin, and no URL is built from the Host header (same-origin checks compare with
 * the configured origin too).
 */
export function registerPublicOriginRedirect(fastify: FastifyInstance, publicOrigin: string): void {
  const publicUrl = new URL(publicOrigin);
  if (!LOCAL_HOST_NAMES.has(publicUrl.hostname)) return;
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isLocalAliasPageRequest(request, publicUrl.hostname)) return;
    // request.url is the path and query as received (origin-form); anything else is not a page.
    if (!request.url.startsWith('/') || request.url.startsWith('//')) return;
    await reply.redirect(`${publicOrigin}${request.url}`, 307);
  });
}

function isLocalAliasPageRequest(request: FastifyRequest, publicHostName: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (NOT_PAGES.test(request.url)) return false;
  const hostName = hostNameOf(request.headers.host);
  return hostName !== undefined && hostName !== publicHostName && LOCAL_HOST_NAMES.has(hostName);
}

function hostNameOf(host: string | undefined): string | undefined {
  if (!host || !URL.canParse(`http://${host}`)) return undefined;
  return new URL(`http://${host}`).hostname;
}
