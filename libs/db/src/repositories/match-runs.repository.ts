import type { Repository } from 'typeorm';
import type { MatchRunTrigger } from '@pod/contracts';
import { MatchRunEntity } from '../entities/match-run.entity';
import { isUniqueViolation, returnedRows, type Db } from './database-session';
import type { AppliedChanges } from './order-records.repository';

export type MatchRun = MatchRunEntity;

/**
 * match_run: queued by the gateway ("Match Orders") or by the news of a sync, taken and
 * finished by the matcher worker holding its job (job id = run id).
 */
export class MatchRunsRepository {
  private readonly runs: Repository<MatchRunEntity>;

  constructor(private readonly db: Db) {
    this.runs = db.getRepository(MatchRunEntity);
  }

  /** Queues a run unless one is queued for the user; either way returns the queued run. */
  async queueOrGetQueued(userId: string, trigger: MatchRunTrigger): Promise<{ run: MatchRun; created: boolean }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const queued = await this.runs.findOne({ where: { userId, status: 'queued' } });
      if (queued) return { run: queued, created: false };
      try {
        const rows: { id: string }[] = await this.db.query(`INSERT INTO match_run (user_id, trigger) VALUES ($1, $2) RETURNING id`, [userId, trigger]);
        return { run: await this.runs.findOneByOrFail({ id: rows[0].id }), created: true };
      } catch (error) {
        if (!isUniqueViolation(error, 'match_run_one_queued_idx')) throw error;
        // Another trigger queued one first: loop and join it.
      }
    }
    throw new Error('match_run: could not queue or find the queued run');
  }

  findById(id: string): Promise<MatchRun | null> {
    return this.runs.findOne({ where: { id } });
  }

  /** The user's newest run (what the status endpoint shows), or null. */
  latestForUser(userId: string): Promise<MatchRun | null> {
    return this.runs.findOne({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * queued → running, once: the worker that gets the row runs it. A run already running
   * (a retried or stalled job) is taken again; a finished one is not.
   */
  async start(id: string): Promise<MatchRun | null> {
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        `UPDATE match_run SET status = 'running', started_at = coalesce(started_at, now()) WHERE id = $1 AND status IN ('queued', 'running') RETURNING id`,
        [id],
      ),
    );
    return rows.length === 0 ? null : this.findById(id);
  }

  async succeed(id: string, applied: AppliedChanges): Promise<void> {
    await this.db.query(
      `UPDATE match_run SET status = 'succeeded', records_added = $2, records_changed = $3, records_removed = $4, finished_at = now()
       WHERE id = $1 AND status = 'running'`,
      [id, applied.added, applied.changed, applied.removed],
    );
  }

  async fail(id: string, message: string): Promise<void> {
    await this.db.query(`UPDATE match_run SET status = 'failed', error_message = $2, finished_at = now() WHERE id = $1 AND status IN ('queued', 'running')`, [
      id,
      message,
    ]);
  }
}
