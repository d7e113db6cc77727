import type { Repository } from 'typeorm';
import {
  type Provider,
  type SyncErrorCode,
  type SyncMode,
  type SyncStreamName,
  type SyncTrigger,
} from '@pod/contracts';
import { SyncRunEntity } from '../entities/sync-run.entity';
import { isUniqueViolation, returnedRows, type Db } from './database-session';

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

/**
 * sync_run: created by the gateway (or a schedule), advanced by the worker holding the run's
 * job. Every write that a worker makes is a compare-and-set on `version`, so a worker that
 * stalled and lost its job can never overwrite the run's newer state.
 */
export class SyncRunsRepository {
  private readonly runs: Repository<SyncRunEntity>;

  constructor(private readonly db: Db) {
    this.runs = db.getRepository(SyncRunEntity);
  }

  /**
   * Queues a run unless one is active for (user, provider); either way returns the active run.
   * The partial unique index decides races between gateway replicas and schedules.
   */
  async startOrGetActive(input: StartSyncRunInput): Promise<{ run: SyncRun; created: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const active = await this.findActive(input.userId, input.provider);
      if (active) return { run: active, created: false };
      try {
        const rows: SyncRunEntity[] = await this.db.query(
          `INSERT INTO sync_run (user_id, provider, shop_id, trigger, mode) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
          [input.userId, input.provider, input.shopId, input.trigger, input.mode],
        );
        return { run: await this.runs.findOneByOrFail({ id: rows[0].id, userId: input.userId }), created: true };
      } catch (error) {
        if (!isUniqueViolation(error, 'sync_run_one_active_idx')) throw error;
        // Another trigger won the race: loop and return its run.
      }
    }
    throw new Error('sync_run: could not start or find the active run');
  }

  findActive(userId: string, provider: Provider): Promise<SyncRun | null> {
    return this.runs
      .createQueryBuilder('run')
      .where('run.user_id = :userId AND run.provider = :provider', { userId, provider })
      .andWhere(`run.${ACTIVE}`)
      .getOne();
  }

  /** The newest run per provider of the user (what the status endpoint shows). */
  async latestForUser(userId: string): Promise<Partial<Record<Provider, SyncRun>>> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT DISTINCT ON (provider) id FROM sync_run WHERE user_id = $1 ORDER BY provider, created_at DESC`,
      [userId],
    );
    if (rows.length === 0) return {};
    const runs = await this.runs.findBy(rows.map((row) => ({ id: row.id, userId })));
    return Object.fromEntries(runs.map((run) => [run.provider, run]));
  }

  /** For the worker: the run by id (no owner scope: the job names it; the row names the owner). */
  findById(runId: string): Promise<SyncRun | null> {
    return this.runs.findOneBy({ id: runId });
  }

  /** For the user: a run of theirs, or null. */
  findForUser(userId: string, runId: string): Promise<SyncRun | null> {
    return this.runs.findOneBy({ id: runId, userId });
  }

  /**
   * The worker takes the run: queued/waiting/running → running. Returns the new version, or
   * null when the run is no longer active (finished, or failed by someone else).
   */
  async markRunning(runId: string): Promise<SyncRun | null> {
    const rows = returnedRows<{ id: string }>(await this.db.query(
      `UPDATE sync_run SET status = 'running', resume_at = NULL, started_at = COALESCE(started_at, now()),
         version = version + 1, updated_at = now()
       WHERE id = $1 AND ${ACTIVE} RETURNING id`,
      [runId],
    ));
    return rows.length ? this.findById(runId) : null;
  }

  /** Adds a committed page to the counters, if `version` is still the run's; returns the new version or null. */
  async recordPage(runId: string, version: number, progress: SyncRunProgress): Promise<number | null> {
    return this.casUpdate(
      runId,
      version,
      `stream = $3, pages_done = pages_done + $4, orders_added = orders_added + $5, orders_changed = orders_changed + $6,
       requests_made = requests_made + $7, expected_pages = COALESCE($8, expected_pages)`,
      [progress.stream, progress.pages, progress.added, progress.changed, progress.requests, progress.expectedPages ?? null],
    );
  }

  /** The provider's daily quota is spent: the run waits (the UI says until when). */
  waitForQuota(runId: string, version: number, resumeAt: Date): Promise<number | null> {
    return this.casUpdate(runId, version, `status = 'waiting_for_quota', resume_at = $3`, [resumeAt]);
  }

  /** The run succeeded: it ends, and the connection of that shop (if still there) shows this sync as its last. */
  async finish(runId: string, version: number): Promise<number | null> {
    const next = await this.casUpdate(runId, version, `status = 'succeeded', stream = NULL, resume_at = NULL, finished_at = now()`, []);
    if (next !== null) {
      await this.db.query(
        `UPDATE provider_connection c SET last_sync_at = r.finished_at FROM sync_run r
         WHERE r.id = $1 AND c.user_id = r.user_id AND c.provider = r.provider AND c.shop_id = r.shop_id`,
        [runId],
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

  /** Active runs not touched for `olderThanMs` (their job may be gone), oldest first. */
  listStaleActive(olderThanMs: number, limit: number): Promise<SyncRun[]> {
    return this.runs
      .createQueryBuilder('run')
      .where(`run.${ACTIVE}`)
      .andWhere(`run.updated_at < now() - make_interval(secs => :seconds)`, { seconds: olderThanMs / 1000 })
      .orderBy('run.updated_at', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Marks a stale active run as touched (the reconciler re-enqueued its job). */
  async touch(runId: string): Promise<void> {
    await this.db.query(`UPDATE sync_run SET updated_at = now() WHERE id = $1 AND ${ACTIVE}`, [runId]);
  }

  private async casUpdate(runId: string, version: number, set: string, params: unknown[]): Promise<number | null> {
    const rows = returnedRows<{ version: number }>(await this.db.query(
      `UPDATE sync_run SET ${set}, version = version + 1, updated_at = now()
       WHERE id = $1 AND version = $2 AND ${ACTIVE} RETURNING version`,
      [runId, version, ...params],
    ));
    return rows.length ? rows[0].version : null;
  }

  private async anyActiveUpdate(runId: string, set: string, params: unknown[]): Promise<number | null> {
    // $2 is unused but keeps the parameter numbering of casUpdate's SET clauses.
    const rows = returnedRows<{ version: number }>(await this.db.query(
      `UPDATE sync_run SET ${set}, version = version + 1, updated_at = now()
       WHERE id = $1 AND $2::int IS NULL AND ${ACTIVE} RETURNING version`,
      [runId, null, ...params],
    ));
    return rows.length ? rows[0].version : null;
  }
}
