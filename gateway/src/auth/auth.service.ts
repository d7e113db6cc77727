import { BadRequestException, ConflictException, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PinoLogger } from 'nestjs-pino';
import { QueryFailedError, type Repository } from 'typeorm';
import type { PublicUser } from '@pod/contracts';
import { UserEntity } from '@pod/db';
import type { LoginDto, RegisterDto } from './dto/auth.dto';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordsService } from './passwords.service';
import { SessionsService } from './sessions.service';
import { publicUser } from './signed-in-user';

export const INVALID_CREDENTIALS = 'Invalid email or password';

export interface SignedIn {
  user: PublicUser;
  session: { jwt: string; maxAgeSeconds: number };
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();
const toPublic = (u: UserEntity) => publicUser({ ...u, currency: u.displayCurrency, isDemo: u.isDemo });

@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly passwords: PasswordsService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(AuthService.name);
  }

  async register(dto: RegisterDto, ip: string): Promise<SignedIn> {
    if (dto.password !== dto.confirmPassword) throw new BadRequestException("Passwords don't match");
    this.passwords.assertAcceptable(dto.password);
    await this.throttle.assertSignupAllowed(ip);
    const email = normaliseEmail(dto.email);
    if (await this.users.exists({ where: { email } })) throw emailTaken();
    const passwordHash = await this.passwords.hash(dto.password);
    let user: UserEntity;
    try {
      user = await this.users.save(this.users.create({ email, passwordHash, firstName: dto.firstName, lastName: dto.lastName }));
    } catch (error) {
      // Two sign-ups with one email at once: the unique index decides.
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') throw emailTaken();
      throw error;
    }
    this.logger.info({ event: 'auth.registered', userId: user.id }, 'account created');
    return { user: toPublic(user), session: await this.sessions.start(user.id) };
  }

  async login(dto: LoginDto, ip: string): Promise<SignedIn> {
    const email = normaliseEmail(dto.email);
    try {
      await this.throttle.assertLoginAllowed(email, ip);
    } catch (error) {
      this.logger.warn({ event: 'auth.login_locked', ip }, 'sign-in refused by throttle');
      throw error;
    }
    const user = await this.users.findOne({ where: { email } });
    const valid = await this.passwords.verify(user?.passwordHash, dto.password);
    if (!user || !valid) {
      await this.throttle.recordFailure(email, ip);
      this.logger.info({ event: 'auth.login_failed', ip, userId: user?.id }, 'sign-in failed');
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.throttle.recordSuccess(email);
    if (this.passwords.needsRehash(user.passwordHash)) {
      await this.users.update({ id: user.id }, { passwordHash: await this.passwords.hash(dto.password) });
    }
    this.logger.info({ event: 'auth.login', userId: user.id }, 'signed in');
    return { user: toPublic(user), session: await this.sessions.start(user.id) };
  }
}

function emailTaken(): ConflictException {
  return new ConflictException('An account with this email already exists');
}
