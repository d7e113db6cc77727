import type { Provider } from '@pod/contracts';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { jsonForPostgres, lastPerKey, payloadHash } from './synced-rows';

export interface QuarantinedRecord {
  /** The record's id at the provider; null when it could not be read (the row is then keyed by the payload's hash). */
  recordKey: string | null;
  field: string;
  reason: string;
  payload: unknown;
}

export interface QuarantineScope {
  userId: string;
  provider: Provider;
  shopId: string;
  stream: string;
}

/** The most of a record kept for the operator: enough to see what was wrong, never a whole 10 MB page. */
export const QUARANTINE_EXCERPT_CHARS = 4_096;

/**
 * The bounds of a user's quarantine per provider: the newest rows by when they were last seen,
 * and none unseen for longer than the age. Enough for an operator to see what a provider sends
 * wrong (one bad record is as telling as a thousand), while a shop whose every record is refused,
 * or a provider whose bad records change with every fetch, cannot grow the table without end.
 */
export const QUARANTINE_LIMITS = { rowsPerProvider: 500, maxAgeDays: 30 };

/**
 * The key of a refused record: its id at the provider, or, when even the id could not be read,
 * `#` and a hash of the payload as received. The same refused payload fetched again (on another
 * page, at another position, by another run) is then the same row, seen once more.
 */
export function quarantineKey(record: Pick<QuarantinedRecord, 'recordKey' | 'payload'>): string {
  return record.recordKey ?? `#${payloadHash(record.payload ?? null)}`;
}

/**
 * sync_quarantine: records that failed the schema, kept with the reason until a clean fetch
 * clears them, and pruned to QUARANTINE_LIMITS as they are written.
 */
export class SyncQuarantineRepository {
  constructor(private readonly db: Db) {}

  async record(scope: QuarantineScope, records: readonly QuarantinedRecord[]): Promise<void> {
    const keyed = records.map((record) => ({ ...record, key: quarantineKey(record) }));
    const rows = lastPerKey(keyed, (record) => record.key).map((record) => ({
      record_key: record.key.slice(0, 200),
      field: record.field.slice(0, 500),
      reason: record.reason.slice(0, 500),
      payload_excerpt: excerpt(record.payload),
    }));
    if (rows.length === 0) return;
    await inTenantScope(this.db, scope.userId, (db) =>
      db.query(
        `INSERT INTO sync_quarantine (user_id, provider, shop_id, stream, record_key, field, reason, payload_excerpt)
       SELECT $1, $2, $3, $4, q.record_key, q.field, q.reason, q.payload_excerpt
       FROM jsonb_to_recordset($5::jsonb) AS q(record_key text, field text, reason text, payload_excerpt text)
       ON CONFLICT (user_id, provider, shop_id, stream, record_key) DO UPDATE SET field = EXCLUDED.field, reason = EXCLUDED.reason,
         payload_excerpt = EXCLUDED.payload_excerpt, times_seen = sync_quarantine.times_seen + 1, last_seen_at = now()`,
        [scope.userId, scope.provider, scope.shopId, scope.stream, jsonForPostgres(rows)],
      ),
    );
    await this.prune(scope);
  }

  /**
   * Keeps the user's quarantine for the provider to the newest QUARANTINE_LIMITS.rowsPerProvider
   * rows by last sighting. Run after every write that adds rows, so it reads at most the bound
   * plus one page's worth (the primary key's user and provider prefix).
   */
  private async prune(scope: QuarantineScope): Promise<void> {
    await inTenantScope(this.db, scope.userId, (db) =>
      db.query(
        `DELETE FROM sync_quarantine q
         WHERE q.user_id = $1 AND q.provider = $2
           AND (q.shop_id, q.stream, q.record_key) IN (
             SELECT k.shop_id, k.stream, k.record_key FROM sync_quarantine k
             WHERE k.user_id = $1 AND k.provider = $2
             ORDER BY k.last_seen_at DESC, k.shop_id, k.stream, k.record_key
             OFFSET $3)`,
        [scope.userId, scope.provider, QUARANTINE_LIMITS.rowsPerProvider],
      ),
    );
  }

  /**
   * Records that now mapped cleanly leave the quarantine; so do the provider's rows unseen for
   * longer than QUARANTINE_LIMITS.maxAgeDays (in the same statement: every page's write calls
   * this, so the age bound holds even when nothing new is refused).
   */
  async release(scope: QuarantineScope, recordKeys: readonly string[]): Promise<void> {
    await inTenantScope(this.db, scope.userId, (db) =>
      db.query(
        `DELETE FROM sync_quarantine WHERE user_id = $1 AND provider = $2
           AND ((shop_id = $3 AND stream = $4 AND record_key = ANY($5::text[]))
             OR last_seen_at < now() - make_interval(days => $6))`,
        [scope.userId, scope.provider, scope.shopId, scope.stream, [...recordKeys], QUARANTINE_LIMITS.maxAgeDays],
      ),
    );
  }

  async listForUser(
    userId: string,
  ): Promise<
    { provider: Provider; shopId: string; stream: string; recordKey: string; field: string; reason: string }[]
  > {
    return inTenantScope(this.db, userId, (db) =>
      db.query(
        `SELECT provider, shop_id AS "shopId", stream, record_key AS "recordKey", field, reason FROM sync_quarantine
       WHERE user_id = $1 ORDER BY provider, shop_id, stream, record_key`,
        [userId],
      ),
    );
  }
}

function excerpt(payload: unknown): string | null {
  if (payload === undefined) return null;
  let text: string;
  try {
    text = jsonForPostgres(payload) ?? String(payload);
  } catch {
    text = String(payload);
  }
  return text.length > QUARANTINE_EXCERPT_CHARS ? `${text.slice(0, QUARANTINE_EXCERPT_CHARS)}…` : text;
}
