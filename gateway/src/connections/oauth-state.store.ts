import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TokenCipher } from '@pod/crypto';
import { oauthVerifierContext, OAuthStatesRepository } from '@pod/db';

/** How long a started Etsy authorization may take (consent screen included). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Pending authorizations one user may have at once; older ones are dropped. */
const MAX_PENDING_PER_USER = 5;

export const hashState = (state: string) => createHash('sha256').update(state, 'utf8').digest('base64url');
const verifierContext = oauthVerifierContext;

export type StateRejection = 'unknown' | 'other-session' | 'replayed' | 'expired';

export type ConsumedState =
  { ok: true; codeVerifier: string; redirectUri: string } | { ok: false; reason: StateRejection };

/**
 * Pending Etsy authorizations in PostgreSQL (so any gateway replica can take the callback):
 * the state only as its SHA-256, the PKCE verifier encrypted and bound to the state, the
 * whole bound to the user's session, valid 10 minutes, consumed at most once.
 */
@Injectable()
export class OAuthStateStore {
  constructor(
    private readonly states: OAuthStatesRepository,
    private readonly cipher: TokenCipher,
  ) {}

  async create(
    input: { userId: string; sessionIdHash: string; state: string; codeVerifier: string; redirectUri: string },
    now = new Date(),
  ) {
    const stateHash = hashState(input.state);
    await this.states.addReplacingOld(
      {
        stateHash,
        userId: input.userId,
        sessionIdHash: input.sessionIdHash,
        codeVerifierEnc: this.cipher.encrypt(input.codeVerifier, verifierContext(input.userId, stateHash)),
        redirectUri: input.redirectUri,
        createdAt: now,
        expiresAt: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
      },
      MAX_PENDING_PER_USER - 1,
    );
  }

  /** Whether this session started an authorization with this state that is still unused and unexpired (nothing is consumed). */
  isPending(state: string, who: { userId: string; sessionIdHash: string }, now = new Date()): Promise<boolean> {
    return this.states.isPending(hashState(state), who, now);
  }

  /**
   * Consumes the state if, and only if, it belongs to this user's session, is unexpired and
   * unused (atomically: two callbacks racing with one state cannot both win). A state of
   * another session is left untouched (its owner may still finish).
   */
  async consume(
    state: string,
    who: { userId: string; sessionIdHash: string },
    now = new Date(),
  ): Promise<ConsumedState> {
    const stateHash = hashState(state);
    const consumed = await this.states.consume(stateHash, who, now);
    if (consumed) {
      return {
        ok: true,
        codeVerifier: this.cipher.decrypt(consumed.codeVerifierEnc, verifierContext(who.userId, stateHash)),
        redirectUri: consumed.redirectUri,
      };
    }
    const found = await this.states.find(stateHash);
    if (!found) return { ok: false, reason: 'unknown' };
    if (found.userId !== who.userId || found.sessionIdHash !== who.sessionIdHash)
      return { ok: false, reason: 'other-session' };
    if (found.consumedAt) return { ok: false, reason: 'replayed' };
    return { ok: false, reason: 'expired' };
  }
}
