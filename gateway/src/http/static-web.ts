import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built web app: hashed assets with a long cache, and index.html for any other GET
 * that is not an API route (the React router decides what that path shows, 404 page included).
 */
export class SpaFallback {
  private constructor(private readonly indexHtml: string) {}

  static async register(fastify: FastifyInstance, webDistDir: string): Promise<SpaFallback | undefined> {
    const root = resolve(webDistDir);
    const indexFile = join(root, 'index.html');
    if (!existsSync(indexFile)) return undefined;
    await fastify.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      serveDotFiles: false,
      // Our setHeaders decides caching: hashed assets forever, the rest revalidated.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.raw.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    return new SpaFallback(readFileSync(indexFile, 'utf8'));
  }

  serves(request: FastifyRequest): boolean {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const path = request.url.split('?')[0];
    return !path.startsWith('/api/') && path !== '/api' && !/\.[a-z0-9]+$/i.test(path);
  }

  send(reply: FastifyReply): void {
    void reply.status(200).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(this.indexHtml);
  }
}
