import { HttpStatus, Injectable, type OnModuleInit } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE } from '@pod/contracts';
import { ApiException } from '../http/api-exception';

export const MAX_PASSWORD_LENGTH = 256;

/** argon2id (the library's default algorithm) at OWASP's first recommended setting, or stronger. */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const COMMON_PASSWORDS = new Set(dictionary.passwords.slice(0, 3000).map((p: string) => p.toLowerCase()));

@Injectable()
export class PasswordsService implements OnModuleInit {
  /** Verified against for unknown emails, so both failures take the same time. */
  private dummyHash = '';

  async onModuleInit(): Promise<void> {
    this.dummyHash = await hash('podprofit-timing-equaliser', ARGON2_OPTIONS);
  }

  /** Throws a 400 with the message a user can act on. */
  assertAcceptable(password: string): void {
    if (password.length < MIN_PASSWORD_LENGTH) {
      throw passwordRejected(PASSWORD_TOO_SHORT_MESSAGE);
    }
    if (password.length > MAX_PASSWORD_LENGTH) {
      throw passwordRejected(`Password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
    }
    if (COMMON_PASSWORDS.has(password.toLowerCase())) {
      throw passwordRejected('This password is too common. Please choose a less guessable one.');
    }
  }

  hash(password: string): Promise<string> {
    return hash(password, ARGON2_OPTIONS);
  }

  async verify(storedHash: string | undefined, password: string): Promise<boolean> {
    try {
      return await verify(storedHash ?? this.dummyHash, password);
    } catch {
      return false;
    }
  }

  /** True when a stored hash is weaker than today's parameters (re-hash at next sign-in). */
  needsRehash(storedHash: string): boolean {
    const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(storedHash);
    if (!match) return true;
    return Number(match[1]) < ARGON2_OPTIONS.memoryCost || Number(match[2]) < ARGON2_OPTIONS.timeCost;
  }
}

const passwordRejected = (message: string) =>
  new ApiException(HttpStatus.BAD_REQUEST, 'password_rejected', message, { field: 'password' });
