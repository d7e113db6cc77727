import { HttpStatus, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { finalize, type Observable } from 'rxjs';
import { ApiException } from './api-exception';
import { NoTurnError, type UserConcurrencyLimiter } from './user-concurrency';

export const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests from your account at once; try again in a moment.';

/**
 * One request's turn in its user's line, given back once the response is over (sent, or the
 * client gone) and no handler of it still runs: a client that hangs up does not free the turn
 * while its handler still holds a connection.
 */
class Turn {
  private handlers = 0;
  private closed = false;
  private released = false;

  constructor(private readonly release: () => void) {}

  handlerStarted(): void {
    this.handlers += 1;
  }

  handlerEnded(): void {
    this.handlers -= 1;
    this.settle();
  }

  requestClosed(): void {
    this.closed = true;
    this.settle();
  }

  private settle(): void {
    if (this.closed && this.handlers === 0 && !this.released) {
      this.released = true;
      this.release();
    }
  }
}

const turns = new WeakMap<FastifyRequest, Turn>();

export interface UserTurnsOptions {
  limiter: UserConcurrencyLimiter;
  /** The session cookie's name. */
  cookieName: string;
  /** The user id of a session JWT whose signature and expiry check out, else null (no database involved). */
  subjectOf: (jwt: string) => string | null;
  /** Answers a refused request (the error filter's reply). */
  refuse: (error: ApiException, request: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * Caps one user's database work in flight in this process (issue 16): every /api request that
 * carries a valid session JWT takes a turn in its user's line (UserConcurrencyLimiter) before
 * anything else, the session check included, and a request past the line is answered 429
 * without touching the database. The JWT's subject is only the key of the line; the session
 * guard still decides who is signed in. Requests without a session (sign-in, /healthz, /livez,
 * static files) take no turn. Register after @fastify/cookie.
 */
export function registerUserTurns(fastify: FastifyInstance, options: UserTurnsOptions): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    const jwt = request.cookies?.[options.cookieName];
    const userId = jwt ? options.subjectOf(jwt) : null;
    if (!userId) return;
    let release: () => void;
    try {
      release = await options.limiter.acquire(userId);
    } catch (error) {
      if (!(error instanceof NoTurnError)) throw error;
      options.refuse(
        new ApiException(HttpStatus.TOO_MANY_REQUESTS, 'too_many_requests', TOO_MANY_REQUESTS_MESSAGE, {
          retryAfterSeconds: 1,
        }),
        request,
        reply,
      );
      return reply;
    }
    const turn = new Turn(release);
    turns.set(request, turn);
    // 'close' comes once per response: after it is sent, or when the client hangs up first.
    reply.raw.once('close', () => turn.requestClosed());
    if (reply.raw.writableEnded || request.raw.destroyed) turn.requestClosed();
  });
}

/** Global: keeps a request's turn until its handler has ended, even when the client left before. */
@Injectable()
export class UserTurnInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const turn =
      context.getType() === 'http' ? turns.get(context.switchToHttp().getRequest<FastifyRequest>()) : undefined;
    if (!turn) return next.handle();
    turn.handlerStarted();
    return next.handle().pipe(finalize(() => turn.handlerEnded()));
  }
}
