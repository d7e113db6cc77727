import {
  type Provider,
  type SyncErrorCode,
  type SyncMode,
  type SyncStreamName,
  type SyncTrigger,
} from '@pod/contracts';
import { SyncRunEntity } from '../entities/sync-run.entity';
import { isUniqueViolation, isUuid, returnedRows, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';

export type SyncRun = SyncRunEntity;

export interface StartSyncRunInput {
  userId: string;
  provider: Provider;
  shopId: string;
  trigger: SyncTrigger;
  mode: SyncMode;
}

/** The page a worker just committed, added to the run's counters. */
export interface SyncRunProgress {
  stream: SyncStreamName;
  pages: number;
  added: number;
  changed: number;
  requests: number;
  expectedPages?: number | null;
}

const ACTIVE = `status IN ('queued', 'running', 'waiting_for_quota')`;

/** Owners of runs looked up by id, remembered (a run never changes owner) up to this many. */
const OWNER_CACHE_SIZE = 1_000;

/**
 * Finished runs kept per user and provider: the status endpoint shows only the newest, the
 * rest is a short history for support. Pruned as each run starts (schedules start one every
 * 15 minutes per shop), so the table grows with shops, not with time.
 */
export const SYNC_RUNS_KEPT = 50;

/**
 * sync_run: created by the gateway (or a schedule), advanced by the worker holding the run's
 * job. Every write that a worker makes is a compare-and-set on `version`, so a worker that
 * stalled and lost its job can never overwrite the run's newer state.
 *
 * Under row-level security every statement runs scoped to the run's owner. The worker and the
 * reconciler know only a run id: its owner comes from sync_run_owner (SECURITY DEFINER, the
 * owner's id and nothing else), and the stale runs from stale_active_sync_runs.
 */
export class SyncRunsRepository {
  private readonly owners = new Map<string, string>();

  constructor(private readonly db: Db) {}

  /**
   * Queues a run unless one is active for (user, provider); either way returns the active run.
   * The partial unique index decides races between gateway replicas and schedules.
   */
  async startOrGetActive(input: StartSyncRunInput): Promise<{ run: SyncRun; created: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const active = await this.findActive(input.userId, input.provider);
      if (active) return { run: active, created: false };
      try {
        const run = await inTenantScope(this.db, input.userId, async (db) => {
          const rows: SyncRunEntity[] = await db.query(
            `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
            [input.userId, input.provider, input.shopId, input.trigger, input.mode],
          );
          await this.pruneFinished(db, input.userId, input.provider);
          return db.getRepository(SyncRunEntity).findOneByOrFail({ id: rows[0].id, userId: input.userId });
        });
        return { run, created: true };
      } catch (error) {
        if (!isUniqueViolation(error, 'sync_run_one_active_idx')) throw error;
        // Another trigger won the race: loop and return its run.
      }
    }
    throw new Error('sync_run: could not start or find the active run');
  }

  findActive(userId: string, provider: Provider): Promise<SyncRun | null> {
    return inTenantScope(this.db, userId, (db) =>
      db
        .getRepository(SyncRunEntity)
        .createQueryBuilder('run')
        .where('run.user_id = :userId AND run.provider = :provider', { userId, provider })
        .andWhere(`run.${ACTIVE}`)
        .getOne(),
    );
  }

  /** The newest run per provider of the user (what the status endpoint shows). */
  async latestForUser(userId: string): Promise<Partial<Record<Provider, SyncRun>>> {
    const runs = await inTenantScope(this.db, userId, async (db) => {
      const rows: { id: string }[] = await db.query(
        `SELECT DISTINCT ON (provider) id FROM sync_run WHERE user_id = $1 ORDER BY provider, created_at DESC`,
        [userId],
      );
      return rows.length === 0
        ? []
        : db.getRepository(SyncRunEntity).findBy(rows.map((row) => ({ id: row.id, userId })));
    });
    return Object.fromEntries(runs.map((run) => [run.provider, run]));
  }

  /** For the worker: the run by id (the job names it; the row names the owner, whom the read is scoped to). */
  async findById(runId: string): Promise<SyncRun | null> {
    const userId = await this.ownerOf(runId);
    return userId ? this.findForUser(userId, runId) : null;
  }

  /** For the user: a run of theirs, or null. */
  findForUser(userId: string, runId: string): Promise<SyncRun | null> {
    if (!isUuid(runId)) return Promise.resolve(null);
    return inTenantScope(this.db, userId, (db) => db.getRepository(SyncRunEntity).findOneBy({ id: runId, userId }));
  }

  /**
   * The worker takes the run: queued/waiting/running → running. Returns the new version, or
   * null when the run is no longer active (finished, or failed by someone else).
   */
  async markRunning(runId: string): Promise<SyncRun | null> {
    const userId = await this.ownerOf(runId);
    if (!userId) return null;
    const rows = returnedRows<{ id: string }>(
      await inTenantScope(this.db, userId, (db) =>
        db.query(
          `UPDATE sync_run SET status = 'running', resume_at = NULL, started_at = COALESCE(started_at, now()),
             version = version + 1, updated_at = now()
           WHERE id = $1 AND user_id = $2 AND ${ACTIVE} RETURNING id`,
          [runId, userId],
        ),
      ),
    );
    return rows.length ? this.findForUser(userId, runId) : null;
  }

  /**
   * Adds a committed page to the counters, if `version` is still the run's; returns the new version or null.
   *
   * The share shown (pages_done ÷ expected_pages) never goes back: a stream's estimate grows as
   * the provider reports more (a ledger window fuller than guessed, the next stream's pages), and
   * a bar going from 87% to 85% reads as lost work. A larger estimate is taken only up to the
   * total that keeps the share where it was; the share then stands still until the pages catch up.
   */
  async recordPage(runId: string, version: number, progress: SyncRunProgress): Promise<number | null> {
    return this.casUpdate(
      runId,
      version,
      `stream = $3, pages_done = pages_done + $4, orders_added = orders_added + $5, orders_changed = orders_changed + $6,
       requests_made = requests_made + $7,
       expected_pages = CASE
         WHEN $8::int IS NULL THEN expected_pages
         WHEN expected_pages IS NULL OR pages_done = 0 THEN $8::int
         ELSE LEAST($8::int, ((pages_done + $4)::bigint * expected_pages / pages_done)::int)
       END`,
      [
        progress.stream,
        progress.pages,
        progress.added,
        progress.changed,
        progress.requests,
        progress.expectedPages ?? null,
      ],
    );
  }

  /** The provider's daily quota is spent: the run waits (the UI says until when). */
  waitForQuota(runId: string, version: number, resumeAt: Date): Promise<number | null> {
    return this.casUpdate(runId, version, `status = 'waiting_for_quota', resume_at = $3`, [resumeAt]);
  }

  /** The run succeeded: it ends, and the connection of that shop (if still there) shows this sync as its last. */
  async finish(runId: string, version: number): Promise<number | null> {
    const next = await this.casUpdate(
      runId,
      version,
      `status = 'succeeded', stream = NULL, resume_at = NULL, finished_at = now()`,
      [],
    );
    const userId = next === null ? null : await this.ownerOf(runId);
    if (userId) {
      await inTenantScope(this.db, userId, (db) =>
        db.query(
          `UPDATE provider_connection c SET last_sync_at = r.finished_at FROM sync_run r
           WHERE r.id = $1 AND r.user_id = $2 AND c.user_id = r.user_id AND c.provider = r.provider AND c.shop_id = r.shop_id`,
          [runId, userId],
        ),
      );
    }
    return next;
  }

  fail(runId: string, version: number | null, errorCode: SyncErrorCode, errorMessage: string): Promise<number | null> {
    const set = `status = 'failed', resume_at = NULL, error_code = $3, error_message = $4, finished_at = now()`;
    if (version === null) return this.anyActiveUpdate(runId, set, [errorCode, errorMessage]);
    return this.casUpdate(runId, version, set, [errorCode, errorMessage]);
  }

  /** The job stalled past maxStalledCount: the next trigger starts a new run from the cursors. */
  interrupt(runId: string): Promise<number | null> {
    return this.anyActiveUpdate(runId, `status = 'interrupted', resume_at = NULL, finished_at = now()`, []);
  }

  /**
   * Active runs of any user not touched for `olderThanMs` (their job may be gone), oldest first:
   * which ones from stale_active_sync_runs, each then read scoped to its owner.
   */
  async listStaleActive(olderThanMs: number, limit: number): Promise<SyncRun[]> {
    const stale: { id: string; userId: string }[] = await this.db.query(
      `SELECT id, user_id AS "userId" FROM stale_active_sync_runs($1, $2)`,
      [olderThanMs / 1000, limit],
    );
    const runs: SyncRun[] = [];
    for (const { id, userId } of stale) {
      this.remember(id, userId);
      const run = await this.findForUser(userId, id);
      if (run) runs.push(run);
    }
    return runs;
  }

  /** Marks a stale active run as touched (the reconciler re-enqueued its job). */
  async touch(runId: string): Promise<void> {
    const userId = await this.ownerOf(runId);
    if (!userId) return;
    await inTenantScope(this.db, userId, (db) =>
      db.query(`UPDATE sync_run SET updated_at = now() WHERE id = $1 AND user_id = $2 AND ${ACTIVE}`, [runId, userId]),
    );
  }

  /** Deletes the finished runs of (user, provider) past the newest SYNC_RUNS_KEPT (sync_run_user_latest_idx); active ones stay. */
  private async pruneFinished(db: Db, userId: string, provider: Provider): Promise<void> {
    await db.query(
      `DELETE FROM sync_run WHERE user_id = $1 AND provider = $2 AND NOT (${ACTIVE}) AND id IN (
         SELECT id FROM sync_run WHERE user_id = $1 AND provider = $2 ORDER BY created_at DESC, id DESC OFFSET $3)`,
      [userId, provider, SYNC_RUNS_KEPT],
    );
  }

  private async casUpdate(runId: string, version: number, set: string, params: unknown[]): Promise<number | null> {
    const userId = await this.ownerOf(runId);
    if (!userId) return null;
    const owner = `$${params.length + 3}`;
    const rows = returnedRows<{ version: number }>(
      await inTenantScope(this.db, userId, (db) =>
        db.query(
          `UPDATE sync_run SET ${set}, version = version + 1, updated_at = now()
           WHERE id = $1 AND version = $2 AND user_id = ${owner} AND ${ACTIVE} RETURNING version`,
          [runId, version, ...params, userId],
        ),
      ),
    );
    return rows.length ? rows[0].version : null;
  }

  private async anyActiveUpdate(runId: string, set: string, params: unknown[]): Promise<number | null> {
    const userId = await this.ownerOf(runId);
    if (!userId) return null;
    const owner = `$${params.length + 3}`;
    // $2 is unused but keeps the parameter numbering of casUpdate's SET clauses.
    const rows = returnedRows<{ version: number }>(
      await inTenantScope(this.db, userId, (db) =>
        db.query(
          `UPDATE sync_run SET ${set}, version = version + 1, updated_at = now()
           WHERE id = $1 AND $2::int IS NULL AND user_id = ${owner} AND ${ACTIVE} RETURNING version`,
          [runId, null, ...params, userId],
        ),
      ),
    );
    return rows.length ? rows[0].version : null;
  }

  /** Whose run this is (sync_run_owner, SECURITY DEFINER: the id and nothing else), or null when there is no such run. */
  private async ownerOf(runId: string): Promise<string | null> {
    if (!isUuid(runId)) return null;
    const known = this.owners.get(runId);
    if (known) return known;
    const [row]: { userId: string | null }[] = await this.db.query(`SELECT sync_run_owner($1) AS "userId"`, [runId]);
    if (row?.userId) this.remember(runId, row.userId);
    return row?.userId ?? null;
  }

  private remember(runId: string, userId: string): void {
    if (this.owners.size >= OWNER_CACHE_SIZE) this.owners.delete(this.owners.keys().next().value as string);
    this.owners.set(runId, userId);
  }
}
