import { IsNull, MoreThan, type Repository } from 'typeorm';
import { OAuthStateEntity } from '../entities/oauth-state.entity';
import type { Db } from './database-session';

export interface NewOAuthState {
  stateHash: string;
  userId: string;
  sessionIdHash: string;
  /** Encrypted by the caller, bound to the state. */
  codeVerifierEnc: string;
  redirectUri: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Who an authorization belongs to: the user and the session that started it. */
export interface OAuthStateOwner {
  userId: string;
  sessionIdHash: string;
}

/** Pending Etsy authorizations (oauth_state), found by the SHA-256 of the state. */
export class OAuthStatesRepository {
  private readonly states: Repository<OAuthStateEntity>;

  constructor(private readonly db: Db) {
    this.states = db.getRepository(OAuthStateEntity);
  }

  /**
   * Adds one, first dropping the user's expired and consumed ones and all but the newest
   * `keepNewest` still pending (one transaction: a user never holds more than keepNewest + 1).
   */
  async addReplacingOld(state: NewOAuthState, keepNewest: number): Promise<void> {
    await this.db.transaction(async (manager) => {
      await manager.query(
        `DELETE FROM oauth_state WHERE user_id = $1 AND (expires_at <= $2 OR consumed_at IS NOT NULL
           OR state_hash IN (SELECT state_hash FROM oauth_state WHERE user_id = $1 ORDER BY created_at DESC OFFSET $3))`,
        [state.userId, state.createdAt, keepNewest],
      );
      await manager.getRepository(OAuthStateEntity).insert(state);
    });
  }

  /** Whether this session has this authorization pending: unused and unexpired (nothing is consumed). */
  isPending(stateHash: string, owner: OAuthStateOwner, now: Date): Promise<boolean> {
    return this.states.exists({ where: { stateHash, ...owner, consumedAt: IsNull(), expiresAt: MoreThan(now) } });
  }

  /**
   * Consumes the authorization if, and only if, it is this session's, unexpired and unused: one
   * atomic UPDATE, so two callbacks racing with one state cannot both win. Null otherwise.
   */
  async consume(stateHash: string, owner: OAuthStateOwner, now: Date): Promise<{ codeVerifierEnc: string; redirectUri: string } | null> {
    const [rows] = (await this.db.query(
      `UPDATE oauth_state SET consumed_at = $4
        WHERE state_hash = $1 AND user_id = $2 AND session_id_hash = $3 AND consumed_at IS NULL AND expires_at > $4
        RETURNING code_verifier_enc AS "codeVerifierEnc", redirect_uri AS "redirectUri"`,
      [stateHash, owner.userId, owner.sessionIdHash, now],
    )) as [Array<{ codeVerifierEnc: string; redirectUri: string }>, number];
    return rows[0] ?? null;
  }

  /** The authorization whatever its owner or state, to tell why a consume failed. */
  find(stateHash: string): Promise<Pick<OAuthStateEntity, 'userId' | 'sessionIdHash' | 'consumedAt' | 'expiresAt'> | null> {
    return this.states.findOne({ where: { stateHash }, select: { stateHash: true, userId: true, sessionIdHash: true, consumedAt: true, expiresAt: true } });
  }
}
