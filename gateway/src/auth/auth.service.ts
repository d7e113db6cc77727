import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { PublicUser } from '@pod/contracts';
import { UsersRepository, type UserEntity } from '@pod/db';
import type { LoginDto, RegisterDto } from './dto/auth.dto';
import { AbuseThrottleService } from './throttles/abuse-throttle.service';
import { SignInLockedException, SignInThrottleService, type SignInOrigin } from './throttles/sign-in-throttle.service';
import { PasswordsService } from './passwords.service';
import { SessionsService } from './sessions.service';
import { publicUser } from './signed-in-user';
import { ApiException } from '../http/api-exception';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface SignedIn {
  user: PublicUser;
  session: { jwt: string; maxAgeSeconds: number };
  /** The known-device cookie's new value (see throttles/known-device-cookie.ts). */
  deviceToken: string;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const toPublic = (u: UserEntity) => publicUser({ ...u, currency: u.displayCurrency, isDemo: u.isDemo });

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly signInThrottle: SignInThrottleService,
    private readonly throttle: AbuseThrottleService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(AuthService.name);
  }

  async register(dto: RegisterDto, origin: SignInOrigin): Promise<SignedIn> {
    if (dto.password !== dto.confirmPassword)
      throw new ApiException(HttpStatus.BAD_REQUEST, 'passwords_mismatch', "Passwords don't match", {
        field: 'confirmPassword',
      });
    this.passwords.assertAcceptable(dto.password);
    await this.throttle.assertSignupAllowed(origin.ip);
    const email = normaliseEmail(dto.email);
    if (await this.users.emailTaken(email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(dto.password);
    // Two sign-ups with one email at once: the unique index decides, and the loser gets null.
    const user = await this.users.create({ email, passwordHash, firstName: dto.firstName, lastName: dto.lastName });
    if (!user) throw emailTaken();
    this.logger.info({ event: 'auth.registered', userId: user.id }, 'account created');
    // Signing up is the first successful sign-in: this browser and address become known.
    const { deviceToken } = await this.signInThrottle.recordSignUp(email, origin);
    return { user: toPublic(user), session: await this.sessions.start(user.id), deviceToken };
  }

  async login(dto: LoginDto, origin: SignInOrigin): Promise<SignedIn> {
    const email = normaliseEmail(dto.email);
    const { ip } = origin;
    const check = await this.signInThrottle.assertAllowed(email, origin).catch((error: unknown) => {
      if (error instanceof SignInLockedException) {
        this.logger.warn(
          { event: 'auth.login_locked', ip, scope: error.scope, trust: error.trust },
          'sign-in refused by throttle',
        );
      }
      throw error;
    });
    const user = await this.users.findByEmail(email);
    const valid = await this.passwords.verify(user?.passwordHash, dto.password);
    if (!user || !valid) {
      await this.signInThrottle.recordFailure(email, origin, check);
      this.logger.info({ event: 'auth.login_failed', ip, userId: user?.id, trust: check.trust }, 'sign-in failed');
      throw new ApiException(HttpStatus.UNAUTHORIZED, 'invalid_credentials', INVALID_CREDENTIALS);
    }
    const { deviceToken } = await this.signInThrottle.recordSuccess(email, origin, check);
    if (this.passwords.needsRehash(user.passwordHash)) {
      await this.users.setPasswordHash(user.id, await this.passwords.hash(dto.password));
    }
    this.logger.info({ event: 'auth.login', userId: user.id, trust: check.trust }, 'signed in');
    return { user: toPublic(user), session: await this.sessions.start(user.id), deviceToken };
  }
}

function emailTaken(): ApiException {
  return new ApiException(HttpStatus.CONFLICT, 'conflict_email_taken', 'An account with this email already exists', {
    field: 'email',
  });
}
