import type { EntityManager } from 'typeorm';
import { affectedRows, returnedRows, type Db } from './database-session';
import { OrderRecordsRepository } from './order-records.repository';
import { inTenantScope } from './tenant-scope';

/**
 * Every table of a user's synced and derived data, in the order Delete All Data empties them:
 * the runs and cursors first (a sync page in flight holds their rows, so the delete waits for it
 * and then sees what it wrote), then the figures before the records, the records before the
 * orders they point at (their foreign keys cascade either way; explicit is cheaper to reason about).
 * The account (app_user), its sessions, connections and OAuth states are kept.
 */
export const USER_DATA_TABLES = [
  'sync_run',
  'sync_cursor',
  'sync_quarantine',
  'match_run',
  'order_profit',
  'order_record_printify_order',
  'order_record',
  'dashboard_day',
  'cost_kind_day',
  'product_day',
  'order_count_day',
  'shop_cost_day',
  'etsy_ledger_entry',
  'etsy_payment',
  'etsy_receipt_line',
  'etsy_receipt',
  'printify_order_line',
  'printify_order',
] as const;

export type UserDataTable = (typeof USER_DATA_TABLES)[number];

export interface DeletedUserData {
  /** Rows removed per table. */
  rows: Record<UserDataTable, number>;
  /** Ids of the sync and match runs removed: their BullMQ jobs carry these ids. */
  syncRunIds: string[];
  matchRunIds: string[];
}

/** Held while a job writes: the epoch is no longer the one the job started with (ADR 0036). */
export class UserDataDeletedError extends Error {
  constructor() {
    super("the user's data was deleted since this job started");
    this.name = 'UserDataDeletedError';
  }
}

const BUMP_EPOCH_SQL = `UPDATE app_user SET data_epoch = data_epoch + 1 WHERE id = $1`;

/**
 * The user's data as a whole (issue 19): its epoch, which the workers' writes check, Delete All
 * Data and Delete Account. Both deletes first bump the epoch (a row lock on app_user: it waits
 * for every worker transaction holding the row, and every later one sees the new epoch), then
 * take the user's matching lock (so a matcher or profit run finishes first or reads the empty
 * tables after), then delete.
 */
export class UserDataRepository {
  constructor(private readonly db: Db) {}

  /** The user's current epoch, or null when there is no such user. Read when a job starts. */
  async epochOf(userId: string): Promise<number | null> {
    const rows: { data_epoch: number }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(`SELECT data_epoch FROM app_user WHERE id = $1`, [userId]),
    );
    return rows[0]?.data_epoch ?? null;
  }

  /**
   * Inside a job's write transaction, before its first write: holds the user's row until the
   * transaction ends (a delete waits meanwhile) and throws UserDataDeletedError when the epoch
   * moved since `epoch` was read, or the user is gone.
   */
  async hold(userId: string, epoch: number): Promise<void> {
    const rows: { data_epoch: number }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(`SELECT data_epoch FROM app_user WHERE id = $1 FOR SHARE`, [userId]),
    );
    if (rows[0]?.data_epoch !== epoch) throw new UserDataDeletedError();
  }

  /** Delete All Data: every row of USER_DATA_TABLES of this user, in one transaction. */
  deleteAllData(userId: string): Promise<DeletedUserData> {
    // One transaction (inTenantScope opens it when this repository is on the DataSource).
    return inTenantScope(this.db, userId, async (db) => {
      await this.fence(db, userId);
      const rows = {} as Record<UserDataTable, number>;
      let syncRunIds: string[] = [];
      let matchRunIds: string[] = [];
      for (const table of USER_DATA_TABLES) {
        if (table === 'sync_run' || table === 'match_run') {
          const ids = returnedRows<{ id: string }>(
            await db.query(`DELETE FROM ${table} WHERE user_id = $1 RETURNING id`, [userId]),
          ).map((row) => row.id);
          if (table === 'sync_run') syncRunIds = ids;
          else matchRunIds = ids;
          rows[table] = ids.length;
        } else {
          rows[table] = affectedRows(await db.query(`DELETE FROM ${table} WHERE user_id = $1`, [userId]));
        }
      }
      return { rows, syncRunIds, matchRunIds };
    });
  }

  /**
   * Delete Account: the user's row, and with it (ON DELETE CASCADE from every table with a
   * user_id) everything of the user. Returns the run ids like deleteAllData, or null when the
   * user was already gone.
   */
  deleteAccount(userId: string): Promise<Omit<DeletedUserData, 'rows'> | null> {
    // One transaction (inTenantScope opens it when this repository is on the DataSource).
    return inTenantScope(this.db, userId, async (db) => {
      await this.fence(db, userId);
      const syncRunIds = (await db.query(`SELECT id FROM sync_run WHERE user_id = $1`, [userId])) as { id: string }[];
      const matchRunIds = (await db.query(`SELECT id FROM match_run WHERE user_id = $1`, [userId])) as {
        id: string;
      }[];
      const removed = affectedRows(await db.query(`DELETE FROM app_user WHERE id = $1`, [userId]));
      if (removed === 0) return null;
      return { syncRunIds: syncRunIds.map((row) => row.id), matchRunIds: matchRunIds.map((row) => row.id) };
    });
  }

  /** The epoch's bump, then the matching lock: see the class comment for why in this order. */
  private async fence(db: EntityManager, userId: string): Promise<void> {
    await db.query(BUMP_EPOCH_SQL, [userId]);
    await new OrderRecordsRepository(db).lockUserForMatching(userId);
  }
}
