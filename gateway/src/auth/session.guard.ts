import { HttpException, HttpStatus, Injectable, Logger, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { shortReason } from '@pod/queue';
import { IS_PUBLIC_KEY, SESSION_OPTIONAL_KEY } from './public.decorator';
import { ApiException } from '../http/api-exception';
import { serviceBusy } from '../http/service-busy';

/**
 * Global: every route needs a live session unless marked @Public(); @SessionOptional() routes
 * run for signed-out callers too, with no user. A session check that failed (PostgreSQL down,
 * the pool's wait timed out) is 503 `service_busy`, never 401: a 401 signs the user out.
 */
@Injectable()
export class SessionGuard extends AuthGuard('jwt') {
  private readonly logger = new Logger(SessionGuard.name);

  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (context.getType() !== 'http') return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    return super.canActivate(context);
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false, _info: unknown, context: ExecutionContext): TUser {
    if (error) {
      if (error instanceof HttpException) throw error;
      // passport-jwt reports a bad or expired token as a failure (no user); an error here came
      // from reading the session. Only its short reason is logged: no token, no query values.
      this.logger.warn(`Session check failed, answering 503: ${errorKind(error)}`);
      throw serviceBusy();
    }
    if (user) return user;
    if (this.reflector.getAllAndOverride<boolean>(SESSION_OPTIONAL_KEY, [context.getHandler(), context.getClass()]))
      return undefined as TUser;
    throw new ApiException(HttpStatus.UNAUTHORIZED, 'unauthenticated', 'Please sign in to continue.');
  }
}

function errorKind(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown })?.code;
  return `${name}${typeof code === 'string' ? ` ${code}` : ''}: ${shortReason(error)}`;
}
