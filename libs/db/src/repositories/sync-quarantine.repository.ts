import type { Provider } from '@pod/contracts';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { jsonForPostgres, lastPerKey } from './synced-rows';

export interface QuarantinedRecord {
  /** The record's id, or `#<position>` when the id could not be read. */
  recordKey: string;
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

/** sync_quarantine: records that failed the schema, kept with the reason until a clean fetch clears them. */
export class SyncQuarantineRepository {
  constructor(private readonly db: Db) {}

  async record(scope: QuarantineScope, records: readonly QuarantinedRecord[]): Promise<void> {
    const rows = lastPerKey(records, (record) => record.recordKey).map((record) => ({
      record_key: record.recordKey.slice(0, 200),
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
  }

  /** Records that now mapped cleanly leave the quarantine. */
  async release(scope: QuarantineScope, recordKeys: readonly string[]): Promise<void> {
    if (recordKeys.length === 0) return;
    await inTenantScope(this.db, scope.userId, (db) =>
      db.query(
        `DELETE FROM sync_quarantine WHERE user_id = $1 AND provider = $2 AND shop_id = $3 AND stream = $4 AND record_key = ANY($5::text[])`,
        [scope.userId, scope.provider, scope.shopId, scope.stream, [...recordKeys]],
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
