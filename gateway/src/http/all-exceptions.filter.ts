import { ArgumentsHost, Catch, HttpException, HttpStatus, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ApiErrorBody, ApiErrorCode } from '@pod/contracts';
import { isDatabaseUnavailable } from '@pod/observability';
import type { SpaFallback } from './static-web';
import { ApiException } from './api-exception';
import { RequestBodyRejected } from './security';
import { serviceBusy } from './service-busy';

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

/** Errors raised by Fastify itself (parsers, limits): a message worded for people and a code, by status. */
const FRAMEWORK_ERRORS: Record<number, { message: string; code: ApiErrorCode }> = {
  400: { message: 'The request body is not valid JSON.', code: 'body_not_json' },
  404: { message: 'Not Found', code: 'not_found' },
  408: { message: 'Request Timeout', code: 'request_timeout' },
  413: { message: 'The request body is too large.', code: 'body_too_large' },
  414: { message: 'The request URL is too long.', code: 'url_too_long' },
  415: { message: 'Send the request body as JSON (Content-Type: application/json).', code: 'unsupported_media_type' },
};
/** Fastify's routing errors, which would otherwise echo the path. */
const FRAMEWORK_CODE_ERRORS: Record<string, { message: string; code: ApiErrorCode }> = {
  FST_ERR_BAD_URL: { message: 'The request URL is not valid.', code: 'bad_url' },
  FST_ERR_MAX_PARAM_LENGTH: { message: 'The request URL is too long.', code: 'url_too_long' },
};
/** The code of an HttpException that is not an ApiException (Nest's router, guards, passport). */
const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'validation_failed',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  408: 'request_timeout',
  409: 'conflict',
  413: 'body_too_large',
  414: 'url_too_long',
  415: 'unsupported_media_type',
  429: 'too_many_attempts',
  503: 'service_unavailable',
};
/** A message longer than this is cut: it may quote input, and both the reply and the log carry it. */
export const MAX_ERROR_MESSAGE_LENGTH = 300;
const MAX_LISTED_MESSAGES = 5;

export type ErrorBody = ApiErrorBody;

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
    this.replyWithError(
      exception,
      host.switchToHttp().getRequest<FastifyRequest>(),
      host.switchToHttp().getResponse<FastifyReply>(),
    );
  }

  /** Also called for errors Fastify raises before a route is found (see framework-errors.ts). */
  replyWithError(thrown: unknown, request: FastifyRequest, reply: FastifyReply): void {
    if (reply.sent) return;
    // A route whose database work could not get a connection in time is busy, not broken: the
    // web app keeps the user where they are and asks again (the session check does the same).
    const exception = isDatabaseUnavailable(thrown) ? serviceBusy() : thrown;
    const body = toErrorBody(exception, request.id);
    if (body.statusCode === 404 && this.spa?.serves(request)) {
      this.spa.send(reply);
      return;
    }
    if (body.statusCode >= 500) {
      // The cause itself (a pool timeout, say) is what the operator needs; the logger's serializer drops values.
      this.logger.error({ err: thrown, reqId: request.id, event: 'http.error' }, 'request failed');
    } else if (body.statusCode !== 404) {
      this.logger.info({ reqId: request.id, statusCode: body.statusCode, event: 'http.rejected' }, body.message);
    }
    const retryAfter = (exception as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) void reply.header('Retry-After', String(retryAfter));
    void reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
  }
}

export function toErrorBody(exception: unknown, requestId: string): ErrorBody {
  if (exception instanceof RequestBodyRejected) return body(400, 'body_too_complex', exception.message);
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    // Nest turns Fastify's own errors (a body that is not JSON, too large, not JSON-typed) into a
    // bare HttpException carrying Fastify's wording; they get ours, by status.
    const framework =
      exception.constructor === HttpException || status === 413 || status === 415
        ? FRAMEWORK_ERRORS[status]
        : undefined;
    if (framework) return body(status, framework.code, framework.message);
    const code = exception instanceof ApiException ? exception.code : codeForStatus(status);
    if (status < 500) return withField(body(status, code, httpMessage(exception, status)), exception);
    // 502/503 messages are ours (a provider or a dependency failed); other 5xx stay in the log.
    const oursToShow =
      exception instanceof ApiException
        ? status === HttpStatus.BAD_GATEWAY || status === HttpStatus.SERVICE_UNAVAILABLE
        : status === HttpStatus.SERVICE_UNAVAILABLE;
    if (oursToShow) {
      return { ...body(status, code, httpMessage(exception, status)), requestId };
    }
  } else {
    const status = (exception as { statusCode?: unknown })?.statusCode;
    const fastifyCode = (exception as { code?: unknown })?.code;
    // Fastify's own errors (bad JSON, too large, unsupported type, bad URL, timeouts) carry a 4xx statusCode.
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const known = (typeof fastifyCode === 'string' && FRAMEWORK_CODE_ERRORS[fastifyCode]) || FRAMEWORK_ERRORS[status];
      return known ? body(status, known.code, known.message) : body(status, codeForStatus(status), errorName(status));
    }
  }
  return { ...body(500, 'internal', 'Internal Server Error'), requestId };
}

function body(statusCode: number, code: ApiErrorCode, message: string): ErrorBody {
  return { statusCode, error: errorName(statusCode), message, code };
}

function withField(errorBody: ErrorBody, exception: HttpException): ErrorBody {
  return exception instanceof ApiException && exception.field ? { ...errorBody, field: exception.field } : errorBody;
}

/** A status no table names still gets a code. */
function codeForStatus(status: number): ApiErrorCode {
  return CODE_BY_STATUS[status] ?? (status < 500 ? 'bad_request' : 'internal');
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
  if (status === 404 && /^Cannot [A-Z]+ /.test(String((response as { message?: unknown }).message ?? response)))
    return 'Not Found';
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.slice(0, MAX_LISTED_MESSAGES).map(String).join('; ');
  if (typeof message === 'string' && message) return message;
  return errorName(status);
}
