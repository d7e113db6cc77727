import { IsNull, MoreThan } from 'typeorm';
import { OAuthStateEntity } from '../entities/oauth-state.entity';
import { returnedRows, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';

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

/** What a pending authorization's PKCE verifier is bound to when encrypted: its user and its state. */
export const oauthVerifierContext = (userId: string, stateHash: string) => ({
  userId,
  provider: 'etsy',
  purpose: `pkce:${stateHash}`,
});

/** Who an authorization belongs to: the user and the session that started it. */
export interface OAuthStateOwner {
  userId: string;
  sessionIdHash: string;
}

/** Pending Etsy authorizations (oauth_state), found by the SHA-256 of the state. */
export class OAuthStatesRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds one, first dropping the user's expired and consumed ones and all but the newest
   * `keepNewest` still pending (one transaction: a user never holds more than keepNewest + 1).
   */
  async addReplacingOld(state: NewOAuthState, keepNewest: number): Promise<void> {
    await inTenantScope(this.db, state.userId, async (manager) => {
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
    return inTenantScope(this.db, owner.userId, (db) =>
      db.getRepository(OAuthStateEntity).exists({
        where: {
          stateHash,
          userId: owner.userId,
          sessionIdHash: owner.sessionIdHash,
          consumedAt: IsNull(),
          expiresAt: MoreThan(now),
        },
      }),
    );
  }

  /**
   * Consumes the authorization if, and only if, it is this session's, unexpired and unused: one
   * atomic UPDATE, so two callbacks racing with one state cannot both win. Null otherwise.
   */
  async consume(
    stateHash: string,
    owner: OAuthStateOwner,
    now: Date,
  ): Promise<{ codeVerifierEnc: string; redirectUri: string } | null> {
    const result: unknown = await inTenantScope(this.db, owner.userId, (db) =>
      db.query(
        `UPDATE oauth_state SET consumed_at = $4
          WHERE state_hash = $1 AND user_id = $2 AND session_id_hash = $3 AND consumed_at IS NULL AND expires_at > $4
          RETURNING code_verifier_enc AS "codeVerifierEnc", redirect_uri AS "redirectUri"`,
        [stateHash, owner.userId, owner.sessionIdHash, now],
      ),
    );
    return returnedRows<{ codeVerifierEnc: string; redirectUri: string }>(result)[0] ?? null;
  }

  /**
   * The authorization whatever its owner or state, to tell why a consume failed: through
   * oauth_state_by_hash (SECURITY DEFINER), keyed by the hash only its owner's browser held.
   */
  async find(
    stateHash: string,
  ): Promise<Pick<OAuthStateEntity, 'userId' | 'sessionIdHash' | 'consumedAt' | 'expiresAt'> | null> {
    const rows: { userId: string; sessionIdHash: string; consumedAt: Date | null; expiresAt: Date }[] =
      await this.db.query(
        `SELECT user_id AS "userId", session_id_hash AS "sessionIdHash", consumed_at AS "consumedAt", expires_at AS "expiresAt" FROM oauth_state_by_hash($1)`,
        [stateHash],
      );
    return rows[0] ?? null;
  }
}
