import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '@pod/config';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import type { AuthResponse, PublicUser } from '@pod/contracts';
import { AuthService, type SignedIn } from './auth.service';
import { LoginDto, RegisterDto } from './dto/auth.dto';
import { Public, SessionOptional } from './public.decorator';
import { sessionCookieName, sessionCookieOptions } from './session-cookie';
import { knownDeviceCookieName, knownDeviceCookieOptions } from './throttles/known-device-cookie';
import type { SignInOrigin } from './throttles/sign-in-throttle.service';
import { serviceBusy } from '../http/service-busy';
import { SessionsService } from './sessions.service';
import { CurrentUser, publicUser, type SignedInUser } from './signed-in-user';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Post('register')
  @BodyLimit(BODY_LIMITS.signUp)
  @HttpCode(201)
  async register(
    @Body() dto: RegisterDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.signIn(reply, await this.auth.register(dto, this.signInOrigin(req)));
  }

  @Public()
  @Post('login')
  @BodyLimit(BODY_LIMITS.signIn)
  @HttpCode(200)
  async login(
    @Body() dto: LoginDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthResponse> {
    return this.signIn(reply, await this.auth.login(dto, this.signInOrigin(req)));
  }

  /** Public so that a stale cookie can always be cleared; ends the session the cookie names. */
  @Public()
  @Post('logout')
  @HttpCode(200)
  async logout(@Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const name = sessionCookieName(this.config);
    const jwt = req.cookies?.[name];
    // A session the store could not end stays valid: say so (503, cookie kept, retry) rather
    // than answer 200 and clear a cookie whose session would live on.
    if (jwt) await this.sessions.endByJwt(jwt).catch(() => Promise.reject(serviceBusy()));
    void reply.clearCookie(name, { ...sessionCookieOptions(this.config, 0), maxAge: undefined });
    return { ok: true };
  }

  /**
   * The signed-in user, or 204 (no body) when signed out: being signed out is an answer, not an
   * error, so an anonymous page load logs no failed request (a 401 would in every browser console).
   */
  @Get('user')
  @SessionOptional()
  user(
    @CurrentUser() user: SignedInUser | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): PublicUser | undefined {
    if (user) return publicUser(user);
    void reply.status(204);
    return undefined;
  }

  private signIn(reply: FastifyReply, signedIn: SignedIn): AuthResponse {
    const { jwt, maxAgeSeconds } = signedIn.session;
    void reply.setCookie(sessionCookieName(this.config), jwt, sessionCookieOptions(this.config, maxAgeSeconds));
    void reply.setCookie(
      knownDeviceCookieName(this.config),
      signedIn.deviceToken,
      knownDeviceCookieOptions(this.config),
    );
    return { user: signedIn.user };
  }

  /** The client's address (after TRUST_PROXY) and its known-device cookie, if any. */
  private signInOrigin(req: FastifyRequest): SignInOrigin {
    return { ip: req.ip, deviceToken: req.cookies?.[knownDeviceCookieName(this.config)] };
  }
}
