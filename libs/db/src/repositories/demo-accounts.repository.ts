import type { DataSource } from 'typeorm';

/** Only one gateway replica sweeps at a time. */
const SWEEP_LOCK_ID = 7_310_425_101;

export interface DemoSweep {
  now: Date;
  /** At most this many accounts of each kind per sweep. */
  batch: number;
  /** The sandbox's live sellers; null when the sandbox is not running or did not answer (no eviction check). */
  liveTenantIds: ReadonlySet<string> | null;
  /** Only accounts made before this are judged against liveTenantIds (a newer one's seller may be missing from the list). */
  judgedBefore: Date;
}

export interface ExpiredDemoAccount {
  id: string;
  sandboxTenantId: string | null;
}

/** Demo accounts (app_user rows with is_demo) as a set: the sweep that removes them. */
export class DemoAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * In one short transaction under the sweep lock: deletes expired demo accounts and those whose
   * sandbox seller is gone (sessions, connections and OAuth states go by foreign key). Returns
   * the expired ones, whose sandbox sellers the caller removes after the commit (no HTTP call
   * inside the transaction); null when another replica is sweeping.
   */
  removeExpired(params: DemoSweep): Promise<{ expired: ExpiredDemoAccount[]; evicted: number } | null> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        SWEEP_LOCK_ID,
      ])) as Array<{ locked: boolean }>;
      if (!locked) return null;
      // sweep_demo_accounts (SECURITY DEFINER): app_user is under row-level security, and the sweep is across users by nature.
      const gone = (await manager.query(
        `SELECT id, sandbox_tenant_id AS "sandboxTenantId", expired FROM sweep_demo_accounts($1, $2, $3::text[], $4)`,
        [params.now, params.batch, params.liveTenantIds ? [...params.liveTenantIds] : null, params.judgedBefore],
      )) as Array<ExpiredDemoAccount & { expired: boolean }>;
      const expired = gone.filter((row) => row.expired).map(({ id, sandboxTenantId }) => ({ id, sandboxTenantId }));
      return { expired, evicted: gone.length - expired.length };
    });
  }
}
