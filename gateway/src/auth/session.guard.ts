import { HttpException, HttpStatus, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { shortReason } from '@pod/queue';
import { IS_PUBLIC_KEY, SESSION_OPTIONAL_KEY } from './public.decorator';
import { ApiException } from '../http/api-exception';
import { SessionTokens } from './session-tokens';
import { SessionsService } from './sessions.service';
import type { SignedInUser } from './signed-in-user';

/** What a client hears when the session check could not reach PostgreSQL: the session still stands. */
export const SERVICE_BUSY_MESSAGE = 'Service busy, retrying. Please wait a moment.';
export const SERVICE_BUSY_RETRY_AFTER_SECONDS = 2;

/** 503 `service_busy`: the session store did not answer, the session itself still stands. */
export function serviceBusy(): ApiException {
  return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'service_busy', SERVICE_BUSY_MESSAGE, {
    retryAfterSeconds: SERVICE_BUSY_RETRY_AFTER_SECONDS,
  });
}

/**
 * Global: every route needs a live session unless marked @Public(); @SessionOptional() routes
 * run for signed-out callers too, with no user. The session JWT comes from its cookie only,
 * verified once per request (SessionTokens, shared with the per-user share); its session row is
 * then checked (SessionsService.resolve). A session check that failed (PostgreSQL down, the
 * pool's wait timed out) is 503 `service_busy`, never 401: a 401 signs the user out.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  private readonly logger = new Logger(SessionGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: SessionTokens,
    private readonly sessions: SessionsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, targets)) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: SignedInUser }>();
    const user = await this.signedInUser(request);
    if (user) {
      request.user = user;
      return true;
    }
    if (this.reflector.getAllAndOverride<boolean>(SESSION_OPTIONAL_KEY, targets)) return true;
    throw new ApiException(HttpStatus.UNAUTHORIZED, 'unauthenticated', 'Please sign in to continue.');
  }

  private async signedInUser(request: FastifyRequest): Promise<SignedInUser | null> {
    const claims = this.tokens.claimsOf(request);
    if (!claims) return null;
    try {
      return await this.sessions.resolve(claims);
    } catch (error) {
      if (error instanceof HttpException) throw error;
      // An error here came from reading the session. Only its short reason is logged: no token,
      // no query values.
      this.logger.warn(`Session check failed, answering 503: ${errorKind(error)}`);
      throw serviceBusy();
    }
  }
}

function errorKind(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown })?.code;
  return `${name}${typeof code === 'string' ? ` ${code}` : ''}: ${shortReason(error)}`;
}
