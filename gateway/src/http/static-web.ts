import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Hashed build output: the file name changes with its content, so it may be cached for good. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon): the browser revalidates before using its copy. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Never routed: source maps (the build makes none, and a stray one would publish our source)
 * and the precompressed siblings, which are only ever sent in place of their original.
 */
const NOT_SERVED = ['**/*.map', '**/*.br', '**/*.gz'];

/**
 * Serves the built web app: hashed assets with a long cache, and index.html for any other GET
 * that is not an API route (the React router decides what that path shows, 404 page included).
 * The build writes `.br` and `.gz` next to every compressible file; the client gets the best
 * one its Accept-Encoding allows (with `Vary: Accept-Encoding`), or the original.
 */
export class SpaFallback {
  private readonly brotliHtml: Buffer;
  private readonly gzipHtml: Buffer;

  private constructor(private readonly indexHtml: Buffer) {
    this.brotliHtml = brotliCompressSync(indexHtml, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
    });
    this.gzipHtml = gzipSync(indexHtml, { level: 9 });
  }

  static async register(fastify: FastifyInstance, webDistDir: string): Promise<SpaFallback | undefined> {
    const root = resolve(webDistDir);
    const indexFile = join(root, 'index.html');
    if (!existsSync(indexFile)) return undefined;
    await fastify.register(fastifyStatic, {
      root,
      wildcard: false,
      globIgnore: NOT_SERVED,
      index: false,
      serveDotFiles: false,
      preCompressed: true,
      // Our setHeaders decides caching: hashed assets forever, the rest revalidated.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.raw.setHeader(
          'Cache-Control',
          path.startsWith(join(root, 'assets') + '/') ? IMMUTABLE_CACHE : REVALIDATE_CACHE,
        );
      },
    });
    return new SpaFallback(readFileSync(indexFile));
  }

  serves(request: FastifyRequest): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = request.url.split('?')[0];
    return !path.startsWith('/api/') && path !== '/api' && !/\.[a-z0-9]+$/i.test(path);
  }

  /** index.html, compressed like the static files when the client accepts it. */
  send(reply: FastifyReply): void {
    const encoding = preferredEncoding(reply.request.headers['accept-encoding']);
    void reply
      .status(200)
      .header('Cache-Control', REVALIDATE_CACHE)
      .header('Vary', 'accept-encoding')
      .type('text/html; charset=utf-8');
    if (encoding) void reply.header('Content-Encoding', encoding);
    void reply.send(encoding === 'br' ? this.brotliHtml : encoding === 'gzip' ? this.gzipHtml : this.indexHtml);
  }
}

/** br over gzip when both are accepted (q=0 refuses one); undefined: send it as it is. */
export function preferredEncoding(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of String(acceptEncoding ?? '')
    .toLowerCase()
    .split(',')) {
    const [name, ...params] = part.trim().split(';');
    const refused = params.some((param) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(param));
    if (name && !refused) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}
