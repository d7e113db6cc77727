import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { TokenCipher } from '@pod/crypto';

/** How long a started Etsy authorization may take (consent screen included). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Pending authorizations one user may have at once; older ones are dropped. */
const MAX_PENDING_PER_USER = 5;

export const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest('base64url');
const verifierContext = (userId: string, stateHash: string) => ({ userId, provider: 'etsy', purpose: `pkce:${stateHash}` });

export type StateRejection = 'unknown' | 'other-session' | 'replayed' | 'expired';

export type ConsumedState = { ok: true; codeVerifier: string; redirectUri: string } | { ok: false; reason: StateRejection };

/**
 * Pending Etsy authorizations in PostgreSQL (so any gateway replica can take the callback):
 * the state only as its SHA-256, the PKCE verifier encrypted and bound to the state, the
 * whole bound to the user's session, valid 10 minutes, consumed at most once.
 */
@Injectable()
export class OAuthStateStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly cipher: TokenCipher,
  ) {}

  async create(input: { userId: string; sessionIdHash: string; state: string; codeVerifier: string; redirectUri: string }, now = new Date()) {
    const stateHash = hashState(input.state);
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `DELETE FROM oauth_state WHERE user_id = $1 AND (expires_at <= $2 OR consumed_at IS NOT NULL
           OR state_hash IN (SELECT state_hash FROM oauth_state WHERE user_id = $1 ORDER BY created_at DESC OFFSET $3))`,
        [input.userId, now, MAX_PENDING_PER_USER - 1],
      );
      await manager.query(
        `INSERT INTO oauth_state (state_hash, user_id, session_id_hash, code_verifier_enc, redirect_uri, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          stateHash,
          input.userId,
          input.sessionIdHash,
          this.cipher.encrypt(input.codeVerifier, verifierContext(input.userId, stateHash)),
          input.redirectUri,
          now,
          new Date(now.getTime() + OAUTH_STATE_TTL_MS),
        ],
      );
    });
  }

  /** Whether this session started an authorization with this state that is still unused and unexpired (nothing is consumed). */
  async isPending(state: string, who: { userId: string; sessionIdHash: string }, now = new Date()): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM oauth_state WHERE state_hash = $1 AND user_id = $2 AND session_id_hash = $3 AND consumed_at IS NULL AND expires_at > $4`,
      [hashState(state), who.userId, who.sessionIdHash, now],
    )) as unknown[];
    return rows.length > 0;
  }

  /**
   * Consumes the state if, and only if, it belongs to this user's session, is unexpired and
   * unused: one atomic UPDATE, so two callbacks racing with one state cannot both win. A
   * state of another session is left untouched (its owner may still finish).
   */
  async consume(state: string, who: { userId: string; sessionIdHash: string }, now = new Date()): Promise<ConsumedState> {
    const stateHash = hashState(state);
    const [rows] = (await this.dataSource.query(
      `UPDATE oauth_state SET consumed_at = $4
        WHERE state_hash = $1 AND user_id = $2 AND session_id_hash = $3 AND consumed_at IS NULL AND expires_at > $4
        RETURNING code_verifier_enc, redirect_uri`,
      [stateHash, who.userId, who.sessionIdHash, now],
    )) as [Array<{ code_verifier_enc: string; redirect_uri: string }>, number];
    const row = rows[0];
    if (row) {
      return { ok: true, codeVerifier: this.cipher.decrypt(row.code_verifier_enc, verifierContext(who.userId, stateHash)), redirectUri: row.redirect_uri };
    }
    const [found] = (await this.dataSource.query(
      `SELECT user_id, session_id_hash, consumed_at, expires_at FROM oauth_state WHERE state_hash = $1`,
      [stateHash],
    )) as Array<{ user_id: string; session_id_hash: string; consumed_at: Date | null; expires_at: Date }>;
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.user_id !== who.userId || found.session_id_hash !== who.sessionIdHash) return { ok: false, reason: 'other-session' };
    if (found.consumed_at) return { ok: false, reason: 'replayed' };
    return { ok: false, reason: 'expired' };
  }
}
