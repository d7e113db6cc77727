import type { EntityManager } from 'typeorm';
import type { MatchRunTrigger } from '@pod/contracts';
import { MatchRunEntity } from '../entities/match-run.entity';
import { isUniqueViolation, isUuid, returnedRows, type Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import type { AppliedChanges } from './order-records.repository';

export type MatchRun = MatchRunEntity;

/**
 * Finished runs kept per user: the status endpoint shows only the newest, the rest is a short
 * history for support. Pruned as each run is queued, so the table grows with users, not clicks.
 */
export const MATCH_RUNS_KEPT = 20;

/**
 * match_run: queued by the gateway ("Match Orders") or by the news of a sync, taken and
 * finished by the matcher worker holding its job (job id = run id).
 */
export class MatchRunsRepository {
  constructor(private readonly db: Db) {}

  /** Queues a run unless one is queued for the user; either way returns the queued run. */
  async queueOrGetQueued(userId: string, trigger: MatchRunTrigger): Promise<{ run: MatchRun; created: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const queued = await inTenantScope(this.db, userId, (db) =>
        db.getRepository(MatchRunEntity).findOne({ where: { userId, status: 'queued' } }),
      );
      if (queued) return { run: queued, created: false };
      try {
        // Its own transaction: a unique violation (another trigger won) must not abort a caller's.
        const run = await inTenantScope(this.db, userId, async (db) => {
          const rows: { id: string }[] = await db.query(
            `INSERT INTO match_run (user_id, trigger) VALUES ($1, $2) RETURNING id`,
            [userId, trigger],
          );
          await pruneFinished(db, userId);
          return db.getRepository(MatchRunEntity).findOneByOrFail({ id: rows[0].id, userId });
        });
        return { run, created: true };
      } catch (error) {
        if (!isUniqueViolation(error, 'match_run_one_queued_idx')) throw error;
        // Another trigger queued one first: loop and join it.
      }
    }
    throw new Error('match_run: could not queue or find the queued run');
  }

  /**
   * Whose run a `match-user` job names (the job carries only the run id): the one read across
   * users (match_run_owner, SECURITY DEFINER), answering nothing but the owner; everything after
   * it is scoped to that user.
   */
  async ownerOf(runId: string): Promise<string | null> {
    if (!isUuid(runId)) return null;
    const rows: { user_id: string | null }[] = await this.db.query(`SELECT match_run_owner($1) AS user_id`, [runId]);
    return rows[0]?.user_id ?? null;
  }

  findForUser(userId: string, id: string): Promise<MatchRun | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    return inTenantScope(this.db, userId, (db) => db.getRepository(MatchRunEntity).findOne({ where: { id, userId } }));
  }

  /** The user's newest run (what the status endpoint shows), or null. */
  latestForUser(userId: string): Promise<MatchRun | null> {
    return inTenantScope(this.db, userId, (db) =>
      db.getRepository(MatchRunEntity).findOne({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } }),
    );
  }

  /**
   * queued → running, once: the worker that gets the row runs it. A run already running
   * (a retried or stalled job) is taken again; a finished one is not.
   */
  start(userId: string, id: string): Promise<MatchRun | null> {
    return inTenantScope(this.db, userId, async (db) => {
      const rows = returnedRows<{ id: string }>(
        await db.query(
          `UPDATE match_run SET status = 'running', started_at = coalesce(started_at, now())
           WHERE id = $1 AND user_id = $2 AND status IN ('queued', 'running') RETURNING id`,
          [id, userId],
        ),
      );
      return rows.length === 0 ? null : db.getRepository(MatchRunEntity).findOne({ where: { id, userId } });
    });
  }

  async succeed(userId: string, id: string, applied: AppliedChanges): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE match_run SET status = 'succeeded', records_added = $3, records_changed = $4, records_removed = $5, finished_at = now()
         WHERE id = $1 AND user_id = $2 AND status = 'running'`,
        [id, userId, applied.added, applied.changed, applied.removed],
      ),
    );
  }

  async fail(userId: string, id: string, message: string): Promise<void> {
    await inTenantScope(this.db, userId, (db) =>
      db.query(
        `UPDATE match_run SET status = 'failed', error_message = $3, finished_at = now() WHERE id = $1 AND user_id = $2 AND status IN ('queued', 'running')`,
        [id, userId, message],
      ),
    );
  }
}

/** Deletes the user's finished runs past the newest MATCH_RUNS_KEPT (match_run_user_latest_idx); active ones stay. */
async function pruneFinished(db: EntityManager, userId: string): Promise<void> {
  await db.query(
    `DELETE FROM match_run WHERE user_id = $1 AND status IN ('succeeded', 'failed') AND id IN (
       SELECT id FROM match_run WHERE user_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2)`,
    [userId, MATCH_RUNS_KEPT],
  );
}
