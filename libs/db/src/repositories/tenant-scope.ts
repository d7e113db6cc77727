import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
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

/** How a tenant transaction starts, beyond its scope. */
export interface TenantTransactionOptions {
  /**
   * READ ONLY at REPEATABLE READ: every statement of `work` reads the same snapshot, so reads
   * that must agree (a page's totals and their breakdowns) cannot straddle a writer's commit.
   */
  snapshot?: boolean;
  /** SET LOCAL statements sent in the same round trip as the start: constant text, never input (no parameters). */
  settings?: string;
}

/**
 * Runs `work` in one transaction scoped to the user: repositories built on its manager see that
 * user's rows only. The transaction starts and takes its scope in one round trip (see
 * beginScoped), then runs as TypeORM's own would: nested `manager.transaction` calls are
 * savepoints, an error rolls everything back, the connection goes back to the pool at the end.
 */
export async function withTenant<T>(
  dataSource: DataSource,
  userId: string,
  work: (manager: EntityManager) => Promise<T>,
  options: TenantTransactionOptions = {},
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    await beginScoped(runner, userId, options);
    const result = await work(runner.manager);
    await runner.commitTransaction();
    return result;
  } catch (error) {
    // The original error is what the caller must see, even when the rollback fails too.
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/**
 * START TRANSACTION and the scope in one round trip instead of two: a gateway read used to be
 * four (START, set_config, the statement, COMMIT), and each costs the gateway a socket write and
 * a parse and PostgreSQL a command, on the same two cores (docs/adr/0015-tenant-scope.md,
 * amendment of 2026-11-28). Two statements in one string go over the simple query protocol,
 * which takes no parameters: the id is inlined, which is safe only because it has just been
 * checked to be a UUID (hex digits and dashes). Then the runner is told what
 * `startTransaction()` would have recorded (depth 1, active), so TypeORM's commit, rollback
 * and savepoints work on it unchanged; `tenant-scope.int-spec.ts` holds that to the TypeORM
 * version installed.
 */
async function beginScoped(runner: QueryRunner, userId: string, options: TenantTransactionOptions): Promise<void> {
  if (!isUuid(userId)) throw new Error('tenant scope: the user id must be a UUID');
  // The connection first (a pool timeout then needs no rollback), then the mark: should the
  // string fail halfway (the connection lost after START), the caller's rollback still runs,
  // and no pooled connection is handed on inside a transaction.
  await runner.connect();
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = true;
  state.transactionDepth = 1;
  const start = options.snapshot ? 'START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'START TRANSACTION';
  const settings = options.settings ? `; ${options.settings}` : '';
  await runner.query(`${start}; SELECT set_config('app.user_id', '${userId}', true)${settings}`);
  scopes.set(runner.manager, userId);
}

/**
 * The same one-round-trip start as beginScoped, on a pg client of its own (the CSV export's
 * cursor, which TypeORM cannot stream): a READ ONLY transaction scoped to the user, then `also`
 * (SET LOCAL statements of the caller's, no parameters). The caller ends the transaction.
 */
export async function beginScopedReadOnly(
  client: { query(text: string): Promise<unknown> },
  userId: string,
  also = '',
): Promise<void> {
  if (!isUuid(userId)) throw new Error('tenant scope: the user id must be a UUID');
  await client.query(`START TRANSACTION READ ONLY; SELECT set_config('app.user_id', '${userId}', true);${also}`);
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
