import { DataSource, type EntityManager } from 'typeorm';
import { isUuid, type Db } from './database-session';

/**
 * The tenant a transaction is scoped to, for PostgreSQL's row-level security (ADR 0015): the
 * policies on the tenant tables show and accept only rows whose user_id equals `app.user_id`,
 * set here with set_config(…, is_local = true), so it ends with the transaction and a pooled
 * connection never carries it on. A query outside such a transaction sees no tenant row.
 * There is no all-tenants escape: what must reach across users is a SECURITY DEFINER function
 * (migration 1765400000000), which the app role can call but not widen.
 */
const scopes = new WeakMap<EntityManager, string>();

/** Runs `work` in one transaction scoped to the user: repositories built on its manager see that user's rows only. */
export function withTenant<T>(
  dataSource: DataSource,
  userId: string,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await scope(manager, userId);
    return work(manager);
  });
}

/**
 * For a repository method on a `Db`: inside the caller's transaction (scoping it to the user if
 * it is not yet; a transaction scoped to another user is refused), else in a transaction of its
 * own. `work` must query through the manager it is given.
 */
export async function inTenantScope<T>(
  db: Db,
  userId: string,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  const manager = openTransaction(db);
  if (!manager) return withTenant(dataSourceOf(db), userId, work);
  await scope(manager, userId);
  return work(manager);
}

async function scope(manager: EntityManager, userId: string): Promise<void> {
  const current = scopes.get(manager);
  if (current === userId) return;
  if (current !== undefined) throw new Error('tenant scope: this transaction is already scoped to another user');
  if (!isUuid(userId)) throw new Error('tenant scope: the user id must be a UUID');
  await manager.query(`SELECT set_config('app.user_id', $1, true)`, [userId]);
  scopes.set(manager, userId);
}

/** The manager of a transaction in progress, or null (a DataSource, or a manager outside one). */
function openTransaction(db: Db): EntityManager | null {
  if (db instanceof DataSource) return null;
  return db.queryRunner?.isTransactionActive ? db : null;
}

function dataSourceOf(db: Db): DataSource {
  return db instanceof DataSource ? db : db.connection;
}
