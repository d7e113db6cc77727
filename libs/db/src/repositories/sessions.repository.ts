import { Not, type Repository } from 'typeorm';
import { SessionEntity } from '../entities/session.entity';
import type { UserEntity } from '../entities/user.entity';
import type { Db } from './database-session';

export type SessionWithUser = SessionEntity & { user: UserEntity };

/** Signed-in sessions (user_session), keyed by the SHA-256 of the session id. */
export class SessionsRepository {
  private readonly sessions: Repository<SessionEntity>;

  constructor(db: Db) {
    this.sessions = db.getRepository(SessionEntity);
  }

  async insert(session: { idHash: string; userId: string; lastSeenAt: Date; expiresAt: Date }): Promise<void> {
    await this.sessions.insert(session);
  }

  /** The session with its user, only when it belongs to `userId`. */
  async findWithUser(idHash: string, userId: string): Promise<SessionWithUser | null> {
    const session = await this.sessions.findOne({ where: { idHash, userId }, relations: { user: true } });
    return session?.user ? (session as SessionWithUser) : null;
  }

  async touch(idHash: string, lastSeenAt: Date): Promise<void> {
    await this.sessions.update({ idHash }, { lastSeenAt });
  }

  async delete(idHash: string): Promise<void> {
    await this.sessions.delete({ idHash });
  }

  /** Ends every session of the user except one (a password change keeps the session that made it). */
  async deleteOthers(userId: string, keepIdHash: string): Promise<void> {
    await this.sessions.delete({ userId, idHash: Not(keepIdHash) });
  }
}
