import { randomUUID } from 'node:crypto';
import { IsNull, type Repository } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { UserEntity } from '../entities/user.entity';
import { isUniqueViolation, isUuid, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';

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

/**
 * Accounts (app_user), under row-level security on `id`: every method names the user and runs
 * scoped to them, except the sign-in lookup by email, which finds only the id (user_id_by_email,
 * a SECURITY DEFINER function) and then reads the row scoped to it.
 */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<UserEntity | null> {
    const userId = await this.idByEmail(email);
    return userId ? this.scoped(userId, (users) => users.findOne({ where: { id: userId } })) : null;
  }

  async emailTaken(email: string): Promise<boolean> {
    return (await this.idByEmail(email)) !== null;
  }

  exists(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return Promise.resolve(false);
    return this.scoped(userId, (users) => users.exists({ where: { id: userId } }));
  }

  /**
   * The new account, or null when the email is taken (two sign-ups at once: the unique index
   * decides). Its id is made here, so the insert can run scoped to the user it creates.
   */
  async create(input: NewUser): Promise<UserEntity | null> {
    const id = randomUUID();
    try {
      return await this.scoped(id, (users) => users.save(users.create({ ...input, id })));
    } catch (error) {
      if (isUniqueViolation(error, 'app_user_email_key')) return null;
      throw error;
    }
  }

  async passwordHashOf(userId: string): Promise<string | null> {
    const user = await this.scoped(userId, (users) =>
      users.findOne({ where: { id: userId }, select: { id: true, passwordHash: true } }),
    );
    return user?.passwordHash ?? null;
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.scoped(userId, (users) => users.update({ id: userId }, { passwordHash }));
  }

  /** Stores a new (normalised) email; false when another account has it (the unique index decides a race). */
  async setEmail(userId: string, email: string): Promise<boolean> {
    try {
      const result = await this.scoped(userId, (users) => users.update({ id: userId }, { email }));
      return (result.affected ?? 0) > 0;
    } catch (error) {
      if (isUniqueViolation(error, 'app_user_email_key')) return false;
      throw error;
    }
  }

  async setDisplayCurrency(userId: string, displayCurrency: DisplayCurrencyCode): Promise<void> {
    await this.scoped(userId, (users) => users.update({ id: userId }, { displayCurrency }));
  }

  /** Whether the user is a demo account, and the sandbox seller that plays their shops; null when the user is gone. */
  sandboxTenantOf(userId: string): Promise<Pick<UserEntity, 'id' | 'isDemo' | 'sandboxTenantId'> | null> {
    return this.scoped(userId, (users) =>
      users.findOne({ where: { id: userId }, select: { id: true, isDemo: true, sandboxTenantId: true } }),
    );
  }

  /**
   * Stores `next` as the user's sandbox seller only if the stored one is still `previous`
   * (compare-and-set: of two requests at once, the first one stored wins); true when stored.
   */
  async replaceSandboxTenant(userId: string, previous: string | null, next: string): Promise<boolean> {
    const result = await this.scoped(userId, (users) =>
      users.update({ id: userId, sandboxTenantId: previous ?? IsNull() }, { sandboxTenantId: next }),
    );
    return (result.affected ?? 0) > 0;
  }

  async delete(userId: string): Promise<void> {
    await this.scoped(userId, (users) => users.delete({ id: userId }));
  }

  private async idByEmail(email: string): Promise<string | null> {
    const rows: { id: string | null }[] = await this.db.query(`SELECT user_id_by_email($1) AS id`, [email]);
    return rows[0]?.id ?? null;
  }

  private scoped<T>(userId: string, work: (users: Repository<UserEntity>) => Promise<T>): Promise<T> {
    return inTenantScope(this.db, userId, (db) => work(db.getRepository(UserEntity)));
  }
}
