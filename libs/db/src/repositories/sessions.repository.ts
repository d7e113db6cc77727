import { Not } from 'typeorm';
import type { DisplayCurrencyCode } from '@pod/domain';
import { SessionEntity } from '../entities/session.entity';
import type { UserEntity } from '../entities/user.entity';
import { isUuid, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';

export type SessionWithUser = SessionEntity & { user: UserEntity };

interface SessionRow {
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  email: string;
  first_name: string;
  last_name: string;
  display_currency: DisplayCurrencyCode;
  is_demo: boolean;
  demo_expires_at: Date | null;
  sandbox_tenant_id: string | null;
  user_created_at: Date;
  user_updated_at: Date;
}

/**
 * Signed-in sessions (user_session), keyed by the SHA-256 of the session id. Under row-level
 * security: what is keyed by the hash alone (the session check, touching and ending a session)
 * goes through SECURITY DEFINER functions, since the hash is itself the credential.
 */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(session: { idHash: string; userId: string; lastSeenAt: Date; expiresAt: Date }): Promise<void> {
    await inTenantScope(this.db, session.userId, (db) => db.getRepository(SessionEntity).insert(session));
  }

  /**
   * The session with its user, only when it belongs to `userId`: one statement (the session check
   * runs on every request), through session_with_user. The user comes without its password hash.
   */
  async findWithUser(idHash: string, userId: string): Promise<SessionWithUser | null> {
    if (!isUuid(userId)) return null;
    const rows: SessionRow[] = await this.db.query(`SELECT * FROM session_with_user($1, $2)`, [idHash, userId]);
    const row = rows[0];
    if (!row) return null;
    const user = {
      id: userId,
      email: row.email,
      passwordHash: '',
      firstName: row.first_name,
      lastName: row.last_name,
      displayCurrency: row.display_currency,
      isDemo: row.is_demo,
      demoExpiresAt: row.demo_expires_at,
      sandboxTenantId: row.sandbox_tenant_id,
      createdAt: row.user_created_at,
      updatedAt: row.user_updated_at,
    } as UserEntity;
    return Object.assign(new SessionEntity(), {
      idHash,
      userId,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      expiresAt: row.expires_at,
      user,
    });
  }

  async touch(idHash: string, lastSeenAt: Date): Promise<void> {
    await this.db.query(`SELECT touch_session($1, $2)`, [idHash, lastSeenAt]);
  }

  async delete(idHash: string): Promise<void> {
    await this.db.query(`SELECT end_session($1)`, [idHash]);
  }

  /** Ends every session of the user except one (a password change keeps the session that made it). */
  async deleteOthers(userId: string, keepIdHash: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db.getRepository(SessionEntity).delete({ userId, idHash: Not(keepIdHash) }),
    );
  }
}
