import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '@pod/config';
import { sessionCookieName, sessionJwtKey } from './session-cookie';
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
    const key = sessionJwtKey(config);
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([
        (request: unknown) => (request as FastifyRequest).cookies?.[cookieName] ?? null,
      ]),
      // Its types say string | Buffer; it hands the key to jsonwebtoken, which takes a KeyObject.
      secretOrKeyProvider: (_request: unknown, _token: unknown, done: (error: null, key: Buffer) => void) =>
        done(null, key as unknown as Buffer),
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  async validate(claims: JwtClaims): Promise<SignedInUser | false> {
    return (await this.sessions.resolve(claims)) ?? false;
  }
}
