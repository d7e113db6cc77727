import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { SpaFallback } from './static-web';
import { RequestBodyRejected } from './security';
import { UpstreamFailureException } from './upstream-failure.exception';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Messages for errors raised by Fastify itself (parsers, limits), worded for people. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'The request body is not valid JSON.',
  404: 'Not Found',
  413: 'The request body is too large.',
  414: 'The request URL is too long.',
  415: 'Send the request body as JSON (Content-Type: application/json).',
};
/** Fastify's routing errors, which would otherwise echo the path. */
const FRAMEWORK_CODE_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The request URL is not valid.',
  FST_ERR_MAX_PARAM_LENGTH: 'The request URL is too long.',
};
/** A message longer than this is cut: it may quote input, and both the reply and the log carry it. */
export const MAX_ERROR_MESSAGE_LENGTH = 300;
const MAX_LISTED_MESSAGES = 5;

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
  requestId?: string;
}

/**
 * The last word on every error. Our own HttpExceptions below 500 pass their message (cut to a
 * few hundred characters: validation messages quote input, and the log line carries it too);
 * errors from Fastify get a fixed message for their code or status; everything else is a bare
 * 500 with the request id, the detail going only to the log.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly spa?: SpaFallback,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    this.replyWithError(exception, host.switchToHttp().getRequest<FastifyRequest>(), host.switchToHttp().getResponse<FastifyReply>());
  }

  /** Also called for errors Fastify raises before a route is found (see framework-errors.ts). */
  replyWithError(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.sent) return;
    const body = toErrorBody(exception, request.id);
    if (body.statusCode === 404 && this.spa?.serves(request)) {
      this.spa.send(reply);
      return;
    }
    if (body.statusCode >= 500) {
      this.logger.error({ err: exception, reqId: request.id, event: 'http.error' }, 'request failed');
    } else if (body.statusCode !== 404) {
      this.logger.info({ reqId: request.id, statusCode: body.statusCode, event: 'http.rejected' }, body.message);
    }
    const retryAfter = (exception as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) void reply.header('Retry-After', String(retryAfter));
    void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  }
}

export function toErrorBody(exception: unknown, requestId: string): ErrorBody {
  if (exception instanceof RequestBodyRejected) return { statusCode: 400, error: errorName(400), message: exception.message };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 413 || status === 415) return { statusCode: status, error: errorName(status), message: FRAMEWORK_MESSAGES[status] };
    if (status < 500) return { statusCode: status, error: errorName(status), message: httpMessage(exception, status) };
    if (exception instanceof UpstreamFailureException) {
      return { statusCode: status, error: errorName(status), message: httpMessage(exception, status), requestId };
    }
    if (status === HttpStatus.SERVICE_UNAVAILABLE) {
      return { statusCode: 503, error: errorName(503), message: httpMessage(exception, 503), requestId };
    }
  } else {
    const status = (exception as { statusCode?: unknown })?.statusCode;
    const code = (exception as { code?: unknown })?.code;
    // Fastify's own errors (bad JSON, too large, unsupported type, bad URL, timeouts) carry a 4xx statusCode.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message = (typeof code === 'string' && FRAMEWORK_CODE_MESSAGES[code]) || FRAMEWORK_MESSAGES[status] || errorName(status);
      return { statusCode: status, error: errorName(status), message };
    }
  }
  return { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error', requestId };
}

function errorName(status: number): string {
  return STATUS_TEXT[status] ?? (status < 500 ? 'Bad Request' : 'Internal Server Error');
}

function httpMessage(exception: HttpException, status: number): string {
  const message = fullHttpMessage(exception, status);
  return message.length > MAX_ERROR_MESSAGE_LENGTH ? `${message.slice(0, MAX_ERROR_MESSAGE_LENGTH - 1)}…` : message;
}

function fullHttpMessage(exception: HttpException, status: number): string {
  const response = exception.getResponse();
  // Nest's own route-not-found message echoes the method and path (query string included).
  if (status === 404 && /^Cannot [A-Z]+ /.test(String((response as { message?: unknown }).message ?? response))) return 'Not Found';
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.slice(0, MAX_LISTED_MESSAGES).map(String).join('; ');
  if (typeof message === 'string' && message) return message;
  return errorName(status);
}
