import type { Db } from './repositories/database-session';

/** The role a pooled connection queries as, and what PostgreSQL lets it skip. */
export interface RuntimeRole {
  /** current_user: the role privileges and row-level security are checked for. */
  currentUser: string;
  superuser: boolean;
  bypassRls: boolean;
  /**
   * Whether the role has the privileges of the owner of a table of the schema: the owner gets
   * `definer_access` (the policy the SECURITY DEFINER functions read through), so it sees every row.
   */
  ownsTables: boolean;
  /** session_user: the DATABASE_URL login the role was taken from. */
  login: string;
}

/** Thrown when a runtime pool would query as a role row-level security does not apply to. */
export class RuntimeRoleError extends Error {
  constructor(readonly role: RuntimeRole) {
    super(
      `PostgreSQL role "${role.currentUser}" ${role.superuser ? 'is a superuser' : role.bypassRls ? 'has BYPASSRLS' : "owns the schema's tables"}: row-level security would not apply. ` +
        'Set DATABASE_APP_ROLE to a role without SUPERUSER or BYPASSRLS that does not own the tables (default podprofit_app, see docs/adr/0015-tenant-scope.md).',
    );
    this.name = 'RuntimeRoleError';
  }
}

export async function runtimeRole(db: Db): Promise<RuntimeRole> {
  const rows: {
    current_user: string;
    rolsuper: boolean;
    rolbypassrls: boolean;
    owns_tables: boolean;
    login: string;
  }[] = await db.query(
    `SELECT current_user AS current_user, rolsuper, rolbypassrls, session_user AS login,
       EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
                 AND pg_has_role(current_user, c.relowner, 'USAGE')) AS owns_tables
     FROM pg_roles WHERE rolname = current_user`,
  );
  const row = rows[0];
  if (!row) throw new Error('the current PostgreSQL role is not in pg_roles');
  return {
    currentUser: row.current_user,
    superuser: row.rolsuper,
    bypassRls: row.rolbypassrls,
    ownsTables: row.owns_tables,
    login: row.login,
  };
}

/** Resolves with the role when row-level security applies to it; throws RuntimeRoleError otherwise. */
export async function assertRuntimeRole(db: Db): Promise<RuntimeRole> {
  const role = await runtimeRole(db);
  if (role.superuser || role.bypassRls || role.ownsTables) throw new RuntimeRoleError(role);
  return role;
}
