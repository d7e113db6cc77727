import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig, deriveKey } from '@pod/config';
import { sessionCookieName } from './session-cookie';
import { SessionsService, type JwtClaims } from './sessions.service';
import type { SignedInUser } from './signed-in-user';

/** Reads the session JWT from its cookie (never from a header or the URL) and checks the session row. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    const cookieName = sessionCookieName(config);
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([
        (request: unknown) => (request as FastifyRequest).cookies?.[cookieName] ?? null,
      ]),
      secretOrKey: deriveKey(config.APP_SECRET, 'session-jwt'),
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: JwtClaims): Promise<SignedInUser | false> {
    return (await this.sessions.resolve(claims)) ?? false;
  }
}
