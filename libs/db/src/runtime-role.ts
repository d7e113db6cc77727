import type { Db } from './repositories/database-session';

/** The role a pooled connection queries as, and what PostgreSQL lets it skip. */
export interface RuntimeRole {
  /** current_user: the role privileges and row-level security are checked for. */
  currentUser: string;
  superuser: boolean;
  bypassRls: boolean;
  /** session_user: the DATABASE_URL login the role was taken from. */
  login: string;
}

/** Thrown when a runtime pool would query as a role row-level security does not apply to. */
export class RuntimeRoleError extends Error {
  constructor(readonly role: RuntimeRole) {
    super(
      `PostgreSQL role "${role.currentUser}" ${role.superuser ? 'is a superuser' : 'has BYPASSRLS'}: row-level security would not apply. ` +
        'Set DATABASE_APP_ROLE to a role without SUPERUSER or BYPASSRLS (default podprofit_app, see docs/adr/0015-tenant-scope.md).',
    );
    this.name = 'RuntimeRoleError';
  }
}

export async function runtimeRole(db: Db): Promise<RuntimeRole> {
  const rows: { current_user: string; rolsuper: boolean; rolbypassrls: boolean; login: string }[] = await db.query(
    `SELECT current_user AS current_user, rolsuper, rolbypassrls, session_user AS login FROM pg_roles WHERE rolname = current_user`,
  );
  const row = rows[0];
  if (!row) throw new Error('the current PostgreSQL role is not in pg_roles');
  return { currentUser: row.current_user, superuser: row.rolsuper, bypassRls: row.rolbypassrls, login: row.login };
}

/** Resolves with the role when row-level security applies to it; throws RuntimeRoleError otherwise. */
export async function assertRuntimeRole(db: Db): Promise<RuntimeRole> {
  const role = await runtimeRole(db);
  if (role.superuser || role.bypassRls) throw new RuntimeRoleError(role);
  return role;
}
