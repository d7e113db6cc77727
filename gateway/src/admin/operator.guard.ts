import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpStatus, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '@pod/config';
import { ApiException } from '../http/api-exception';
import { OperatorThrottle } from './operator-throttle';

export const OPERATOR_CREDENTIAL_REQUIRED = 'Operator credential required';

/**
 * Operator routes take `Authorization: Bearer <OPERATOR_TOKEN>` and nothing else (a seller's
 * session cookie is no credential here). With OPERATOR_TOKEN unset the routes answer 404, as
 * if they did not exist.
 */
@Injectable()
export class OperatorGuard implements CanActivate {
  constructor(
    private readonly config: AppConfig,
    private readonly throttle: OperatorThrottle,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const expected = this.config.OPERATOR_TOKEN;
    if (!expected) throw new ApiException(HttpStatus.NOT_FOUND, 'not_found', 'Not Found');
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const presented = bearerToken(request.headers.authorization);
    const valid = presented !== null && sameSecret(presented, expected);
    // Checked before answering: past the limit even the right token waits, so guessing gains nothing.
    await this.throttle.assertAllowed(request.ip, 'api').catch((error: unknown) => {
      // Redis down: the counters cannot be read. The right token still passes — operators need
      // these routes most during an outage (the queue routes then answer their own 503) — while a
      // wrong one gets the counter's 503, so the outage opens no unthrottled guessing.
      if (!(valid && error instanceof ApiException && error.getStatus() === HttpStatus.SERVICE_UNAVAILABLE))
        throw error;
    });
    if (!valid) {
      // No credential at all is a plain 401; a wrong one counts against the address.
      if (presented !== null) await this.throttle.recordRejected(request.ip, 'api');
      throw new ApiException(HttpStatus.UNAUTHORIZED, 'operator_credential_required', OPERATOR_CREDENTIAL_REQUIRED);
    }
    return true;
  }
}

export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(value ?? '');
  return match ? match[1] : null;
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function sameSecret(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
