import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { ApiException } from './api-exception';

export const NO_BODY_MESSAGE = 'This request takes no body.';

/**
 * Unknown fields are refused on every route, including those that take no body: the validation
 * pipe refuses them only where there is a body DTO to check them against, so
 * `POST /api/orders/:id/archive {"userId": …}` used to answer 200, silently ignoring what the
 * caller may have thought it controlled. A route takes a body when its handler has a `@Body()`
 * parameter, or when its route config sets its own body limit (@BodyLimit, @ProviderWebhookBody:
 * the webhooks and the demo consent form read their body themselves); any other gets 400 for
 * a body that is not empty (`{}` and none pass: clients send them). An interceptor, not a guard,
 * so a signed-out or cross-origin request still gets its 401 or 403 first. The message quotes
 * nothing from the body: the rejection is logged.
 */
@Injectable()
export class NoBodyInterceptor implements NestInterceptor {
  private readonly takesBody = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<FastifyRequest>();
      if (!isEmptyBody(request.body) && !this.routeTakesBody(context, request)) {
        throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', NO_BODY_MESSAGE);
      }
    }
    return next.handle();
  }

  private routeTakesBody(context: ExecutionContext, request: FastifyRequest): boolean {
    const handler = context.getHandler();
    let takes = this.takesBody.get(handler);
    if (takes === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<
        string,
        unknown
      >;
      takes = Object.keys(args).some(
        (key) => key.startsWith(`${RouteParamtypes.BODY}:`) || key.startsWith(`${RouteParamtypes.RAW_BODY}:`),
      );
      this.takesBody.set(handler, takes);
    }
    return takes || (request.routeOptions?.config as { bodyLimit?: number } | undefined)?.bodyLimit !== undefined;
  }
}

function isEmptyBody(body: unknown): boolean {
  if (body === undefined || body === null || body === '') return true;
  if (Buffer.isBuffer(body)) return body.length === 0;
  return typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0;
}
