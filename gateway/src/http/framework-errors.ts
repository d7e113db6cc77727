import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AllExceptionsFilter } from './all-exceptions.filter';
import { securityHeadersForRawReplies } from './security';

/**
 * Fastify answers some requests before routing (a malformed URL such as "/%c0%ae", a route
 * parameter past its length) from its `frameworkErrors` option, skipping every hook: without
 * this, those answers carry no security headers and echo the path and query. They get the
 * headers and the error filter like any other error. The filter exists only once the app is
 * built, after the adapter that needs this handler.
 */
export class FrameworkErrors {
  private filter?: AllExceptionsFilter;
  private readonly setSecurityHeaders: (request: FastifyRequest, reply: FastifyReply) => void;

  constructor(isProduction: boolean) {
    this.setSecurityHeaders = securityHeadersForRawReplies(isProduction);
  }

  useFilter(filter: AllExceptionsFilter): void {
    this.filter = filter;
  }

  readonly handle = (error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    this.setSecurityHeaders(request, reply);
    void reply.header('x-request-id', request.id);
    if (this.filter) return this.filter.replyWithError(error, request, reply);
    void reply.status(400).send({ statusCode: 400, error: 'Bad Request', message: 'Bad Request', code: 'bad_url' });
  };
}
