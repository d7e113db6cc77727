import { TokenCipher, TokenDecryptError, type TokenContext } from '@pod/crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { tokenContext } from './connections.repository';
import { oauthVerifierContext } from './oauth-states.repository';
import { withTenant } from './tenant-scope';

/** What a re-encryption pass did (security plan item 27). */
export interface ReencryptionReport {
  /** The key version every stored value is now under. */
  keyVersion: number;
  users: number;
  connections: number;
  oauthStates: number;
  /** Expired or used authorizations dropped instead (their verifiers are never read again). */
  oauthStatesDropped: number;
  /** Values no key here opens (encrypted under a removed key, or damaged): left as they are. */
  unreadable: number;
  /** Rows another process changed while they were re-encrypted: they are under the current key already, or the next pass takes them. */
  skippedChanged: number;
}

interface ConnectionRow {
  id: string;
  provider: 'etsy' | 'printify';
  keyVersion: number;
  accessTokenEnc: string;
  refreshTokenEnc: string | null;
  webhookSecretEnc: string | null;
}

const USERS_PER_READ = 500;

/**
 * Moves every stored provider secret (access and refresh tokens, Printify webhook secrets,
 * pending OAuth verifiers) to the cipher's current key version, user by user, each user in one
 * transaction of its own scope (row-level security: no read spans users). Each row is written
 * only while it still holds what was read (compare-and-set), so a token refresh racing the pass
 * wins and is never overwritten with the older token. Idempotent: a row already under the
 * current key is not touched, so a pass killed midway is simply run again.
 */
export class TokenReencryption {
  constructor(
    /** As the login role (the operator's command), which may read app_user to walk the users. */
    private readonly dataSource: DataSource,
    private readonly cipher: TokenCipher,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async run(onUser?: (userId: string) => void): Promise<ReencryptionReport> {
    const report: ReencryptionReport = {
      keyVersion: this.cipher.currentVersion,
      users: 0,
      connections: 0,
      oauthStates: 0,
      oauthStatesDropped: 0,
      unreadable: 0,
      skippedChanged: 0,
    };
    for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
      const users: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM app_user WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, USERS_PER_READ],
      );
      for (const { id } of users) {
        await withTenant(this.dataSource, id, (manager) => this.reencryptUser(manager, id, report));
        report.users += 1;
        onUser?.(id);
      }
      if (users.length < USERS_PER_READ) return report;
      after = users[users.length - 1].id;
    }
  }

  private async reencryptUser(manager: EntityManager, userId: string, report: ReencryptionReport): Promise<void> {
    const current = `v${this.cipher.currentVersion}.%`;
    const connections: ConnectionRow[] = await manager.query(
      `SELECT id, provider, key_version AS "keyVersion", access_token_enc AS "accessTokenEnc",
              refresh_token_enc AS "refreshTokenEnc", webhook_secret_enc AS "webhookSecretEnc"
         FROM provider_connection
        WHERE user_id = $1 AND (key_version <> $2 OR access_token_enc NOT LIKE $3
          OR refresh_token_enc NOT LIKE $3 OR webhook_secret_enc NOT LIKE $3)`,
      [userId, this.cipher.currentVersion, current],
    );
    for (const row of connections) {
      const moved = this.moveAll(report, [
        [row.accessTokenEnc, tokenContext(userId, row.provider, 'access')],
        [row.refreshTokenEnc, tokenContext(userId, row.provider, 'refresh')],
        [row.webhookSecretEnc, tokenContext(userId, row.provider, 'webhook')],
      ]);
      if (!moved) continue;
      const [, written] = (await manager.query(
        `UPDATE provider_connection
            SET access_token_enc = $3, refresh_token_enc = $4, webhook_secret_enc = $5, key_version = $6, updated_at = now()
          WHERE id = $1 AND user_id = $2 AND access_token_enc = $7
            AND refresh_token_enc IS NOT DISTINCT FROM $8 AND webhook_secret_enc IS NOT DISTINCT FROM $9`,
        [
          row.id,
          userId,
          ...moved,
          this.cipher.currentVersion,
          row.accessTokenEnc,
          row.refreshTokenEnc,
          row.webhookSecretEnc,
        ],
      )) as [unknown, number];
      if (written === 1) report.connections += 1;
      else report.skippedChanged += 1;
    }

    // Authorizations no callback can use any more hold verifiers nobody reads: dropped, not moved.
    const [, dropped] = (await manager.query(
      `DELETE FROM oauth_state WHERE user_id = $1 AND code_verifier_enc NOT LIKE $2 AND (expires_at <= $3 OR consumed_at IS NOT NULL)`,
      [userId, current, this.now()],
    )) as [unknown, number];
    report.oauthStatesDropped += dropped;
    const pending: { stateHash: string; codeVerifierEnc: string }[] = await manager.query(
      `SELECT state_hash AS "stateHash", code_verifier_enc AS "codeVerifierEnc" FROM oauth_state
        WHERE user_id = $1 AND code_verifier_enc NOT LIKE $2`,
      [userId, current],
    );
    for (const state of pending) {
      const moved = this.moveAll(report, [[state.codeVerifierEnc, oauthVerifierContext(userId, state.stateHash)]]);
      if (!moved) continue;
      const [, written] = (await manager.query(
        `UPDATE oauth_state SET code_verifier_enc = $3 WHERE state_hash = $1 AND user_id = $2 AND code_verifier_enc = $4`,
        [state.stateHash, userId, moved[0], state.codeVerifierEnc],
      )) as [unknown, number];
      if (written === 1) report.oauthStates += 1;
      else report.skippedChanged += 1;
    }
  }

  /** Each value under the current key (null stays null), or null when one cannot be read (counted; the row is left alone). */
  private moveAll(report: ReencryptionReport, values: [string | null, TokenContext][]): (string | null)[] | null {
    const moved: (string | null)[] = [];
    for (const [stored, context] of values) {
      if (stored === null) {
        moved.push(null);
        continue;
      }
      if (TokenCipher.keyVersionOf(stored) === this.cipher.currentVersion) {
        moved.push(stored);
        continue;
      }
      try {
        moved.push(this.cipher.encrypt(this.cipher.decrypt(stored, context), context));
      } catch (error) {
        if (!(error instanceof TokenDecryptError)) throw error;
        report.unreadable += 1;
        return null;
      }
    }
    return moved;
  }
}
