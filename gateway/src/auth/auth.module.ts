import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { AppConfig } from '@pod/config';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { JwtStrategy } from './jwt.strategy';
import { AbuseThrottleService } from './throttles/abuse-throttle.service';
import { SignInThrottleService } from './throttles/sign-in-throttle.service';
import { PasswordsService } from './passwords.service';
import { SessionGuard } from './session.guard';
import { sessionJwtKey } from './session-cookie';
import { SessionRevocationsService } from './session-revocations.service';
import { SessionsService } from './sessions.service';

@Module({
  imports: [
    PassportModule,
    JwtModule.registerAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        secret: sessionJwtKey(config),
        signOptions: { algorithm: 'HS256' },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [
    AuthService,
    SessionsService,
    SessionRevocationsService,
    PasswordsService,
    AbuseThrottleService,
    SignInThrottleService,
    JwtStrategy,
    SessionGuard,
  ],
  exports: [SessionsService, PasswordsService, SessionGuard, AbuseThrottleService],
})
export class AuthModule {}
