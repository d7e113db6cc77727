import { IsNull, type Repository } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { UserEntity } from '../entities/user.entity';
import { isUniqueViolation, type Db } from './database-session';

export interface NewUser {
  /** Already normalised (trimmed, lower-cased). */
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  isDemo?: boolean;
  demoExpiresAt?: Date | null;
  sandboxTenantId?: string | null;
}

/** Accounts (app_user). Every method names the user it reads or writes. */
export class UsersRepository {
  private readonly users: Repository<UserEntity>;

  constructor(db: Db) {
    this.users = db.getRepository(UserEntity);
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { email } });
  }

  emailTaken(email: string): Promise<boolean> {
    return this.users.exists({ where: { email } });
  }

  exists(userId: string): Promise<boolean> {
    return this.users.exists({ where: { id: userId } });
  }

  /** The new account, or null when the email is taken (two sign-ups at once: the unique index decides). */
  async create(input: NewUser): Promise<UserEntity | null> {
    try {
      return await this.users.save(this.users.create(input));
    } catch (error) {
      if (isUniqueViolation(error, 'app_user_email_key')) return null;
      throw error;
    }
  }

  async passwordHashOf(userId: string): Promise<string | null> {
    const user = await this.users.findOne({ where: { id: userId }, select: { id: true, passwordHash: true } });
    return user?.passwordHash ?? null;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.users.update({ id: userId }, { passwordHash });
  }

  async setDisplayCurrency(userId: string, displayCurrency: DisplayCurrencyCode): Promise<void> {
    await this.users.update({ id: userId }, { displayCurrency });
  }

  /** Whether the user is a demo account, and the sandbox seller that plays their shops; null when the user is gone. */
  sandboxTenantOf(userId: string): Promise<Pick<UserEntity, 'id' | 'isDemo' | 'sandboxTenantId'> | null> {
    return this.users.findOne({ where: { id: userId }, select: { id: true, isDemo: true, sandboxTenantId: true } });
  }

  /**
   * Stores `next` as the user's sandbox seller only if the stored one is still `previous`
   * (compare-and-set: of two requests at once, the first one stored wins); true when stored.
   */
  async replaceSandboxTenant(userId: string, previous: string | null, next: string): Promise<boolean> {
    const result = await this.users.update({ id: userId, sandboxTenantId: previous ?? IsNull() }, { sandboxTenantId: next });
    return (result.affected ?? 0) > 0;
  }

  async delete(userId: string): Promise<void> {
    await this.users.delete({ id: userId });
  }
}
