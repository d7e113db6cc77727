import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  NotFoundException,
  PayloadTooLargeException,
} from '@nestjs/common';
import { API_ERROR_CODES } from '@pod/contracts';
import { ApiException } from './api-exception';
import { toErrorBody } from './all-exceptions.filter';
import { RequestBodyRejected } from './security';

const fastifyError = (code: string, statusCode: number, message: string) =>
  Object.assign(new Error(message), { code, statusCode });

describe('toErrorBody gives every error a code', () => {
  it.each<[string, unknown, number, string]>([
    [
      'our own ApiException',
      new ApiException(409, 'conflict_email_taken', 'An account with this email already exists'),
      409,
      'conflict_email_taken',
    ],
    ["Nest's route-not-found", new NotFoundException('Cannot GET /api/nope?x=1'), 404, 'not_found'],
    // Nest hands Fastify's parser errors on as a bare HttpException with Fastify's wording.
    [
      "Fastify's bad JSON, as Nest passes it",
      new HttpException("Body is not valid JSON but content-type is set to 'application/json'", 400),
      400,
      'body_not_json',
    ],
    ["Fastify's 413, as Nest passes it", new HttpException('Request body is too large', 413), 413, 'body_too_large'],
    [
      "Fastify's 415, as Nest passes it",
      new HttpException('Unsupported Media Type', 415),
      415,
      'unsupported_media_type',
    ],
    ['a PayloadTooLargeException', new PayloadTooLargeException(), 413, 'body_too_large'],
    [
      'a body nested too deeply',
      new RequestBodyRejected('The request body is nested too deeply.'),
      400,
      'body_too_complex',
    ],
    [
      'a malformed URL (before routing)',
      fastifyError('FST_ERR_BAD_URL', 400, "'/%c0' is not a valid url component"),
      400,
      'bad_url',
    ],
    [
      'a route parameter past its length',
      fastifyError('FST_ERR_MAX_PARAM_LENGTH', 414, 'too long'),
      414,
      'url_too_long',
    ],
    ['a request timeout', fastifyError('FST_ERR_REQUEST_TIMEOUT', 408, 'timeout'), 408, 'request_timeout'],
    ['a guard that says no', new ForbiddenException('Forbidden resource'), 403, 'forbidden'],
    ['a 400 from a library', new BadRequestException('bad'), 400, 'validation_failed'],
    ['an unexpected crash', new TypeError('cannot read properties of undefined (reading "id")'), 500, 'internal'],
    ['a thrown string', 'boom', 500, 'internal'],
  ])('%s', (_label, exception, status, code) => {
    const body = toErrorBody(exception, 'req-1');
    expect(body).toMatchObject({ statusCode: status, code });
    expect(API_ERROR_CODES).toContain(body.code);
  });

  it("keeps Fastify's wording (which may quote input) out of the body", () => {
    expect(
      toErrorBody(new HttpException("Body is not valid JSON but content-type is set to 'application/json'", 400), 'r')
        .message,
    ).toBe('The request body is not valid JSON.');
  });

  it('passes the field and message of an ApiException', () => {
    expect(
      toErrorBody(
        new ApiException(400, 'validation_failed', ['Email is too long', 'Password must be text'], { field: 'email' }),
        'r',
      ),
    ).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'Email is too long; Password must be text',
      code: 'validation_failed',
      field: 'email',
    });
  });

  it('shows our own 502/503 words with the request id, and hides every other 5xx', () => {
    expect(
      toErrorBody(new ApiException(502, 'provider_rejected', 'Etsy did not answer. Please try again.'), 'r'),
    ).toEqual({
      statusCode: 502,
      error: 'Bad Gateway',
      message: 'Etsy did not answer. Please try again.',
      code: 'provider_rejected',
      requestId: 'r',
    });
    expect(toErrorBody(new HttpException('upstream said: secret-host:5432 refused', 502), 'r')).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal Server Error',
      code: 'internal',
      requestId: 'r',
    });
  });
});
