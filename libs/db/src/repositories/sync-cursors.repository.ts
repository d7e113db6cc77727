import type { Provider, SyncStreamName } from '@pod/contracts';
import { returnedRows, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';

export interface CursorKey {
  userId: string;
  provider: Provider;
  shopId: string;
  stream: SyncStreamName;
}

export interface StoredCursor<Position> {
  position: Position;
  /** 0 when no row exists yet (the first advance inserts it). */
  version: number;
}

/**
 * sync_cursor: read before a page, advanced in the page's transaction. `advance` is a
 * compare-and-set on `version`: if another worker moved the cursor meanwhile (a duplicated
 * job, a stalled worker resumed), it returns false and the caller rolls the page back.
 */
export class SyncCursorsRepository {
  constructor(private readonly db: Db) {}

  async read<Position>(key: CursorKey): Promise<StoredCursor<Position> | null> {
    const rows: { position: Position; version: number }[] = await inTenantScope(this.db, key.userId, (db) =>
      db.query(
        `SELECT position, version FROM sync_cursor WHERE user_id = $1 AND provider = $2 AND shop_id = $3 AND stream = $4`,
        [key.userId, key.provider, key.shopId, key.stream],
      ),
    );
    return rows[0] ?? null;
  }

  /** Moves the cursor from `expectedVersion` (0: none yet) to `position`; false when someone else moved it. */
  async advance<Position>(
    key: CursorKey,
    expectedVersion: number,
    position: Position,
    runId: string,
  ): Promise<boolean> {
    const json = JSON.stringify(position);
    return inTenantScope(this.db, key.userId, (db) => this.write(db, key, expectedVersion, json, runId));
  }

  private async write(db: Db, key: CursorKey, expectedVersion: number, json: string, runId: string): Promise<boolean> {
    if (expectedVersion === 0) {
      const rows: unknown[] = await db.query(
        `INSERT INTO sync_cursor (user_id, provider, shop_id, stream, position, version, run_id)
         VALUES ($1, $2, $3, $4, $5::jsonb, 1, $6) ON CONFLICT DO NOTHING RETURNING version`,
        [key.userId, key.provider, key.shopId, key.stream, json, runId],
      );
      return rows.length === 1;
    }
    const rows = returnedRows(
      await db.query(
        `UPDATE sync_cursor SET position = $5::jsonb, version = version + 1, run_id = $6, updated_at = now()
       WHERE user_id = $1 AND provider = $2 AND shop_id = $3 AND stream = $4 AND version = $7 RETURNING version`,
        [key.userId, key.provider, key.shopId, key.stream, json, runId, expectedVersion],
      ),
    );
    return rows.length === 1;
  }

  /** Forgets every cursor of the user (Delete All Data: the next sync starts from scratch). */
  async removeAllForUser(userId: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) => db.query(`DELETE FROM sync_cursor WHERE user_id = $1`, [userId]));
  }
}
