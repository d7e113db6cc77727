import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The runtime role (DATABASE_APP_ROLE's default): no login, no SUPERUSER, no BYPASSRLS. */
export const APP_ROLE = 'podprofit_app';

/**
 * The tenant tables under row-level security: issue 9's (order records, their figures, match
 * runs) and the synced order tables the order routes, the matcher and the profit writer read.
 */
export const ROW_SECURED_TABLES = [
  'order_record',
  'order_profit',
  'match_run',
  'etsy_receipt',
  'etsy_receipt_line',
  'etsy_payment',
  'etsy_ledger_entry',
  'printify_order',
  'printify_order_line',
] as const;

/** The user a transaction is scoped to (set_config('app.user_id', …, true)); no setting, no rows. */
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/** The synced tables a sync analyzes when their statistics lag (TableStatisticsRepository). */
const ANALYZABLE_TABLES = [
  'etsy_receipt',
  'etsy_receipt_line',
  'etsy_payment',
  'etsy_ledger_entry',
  'printify_order',
  'printify_order_line',
];

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteLiteral = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Creates a NOLOGIN role unless it exists, safe when databases of one cluster migrate at once:
 * a concurrent creation surfaces as duplicate_object or as unique_violation on pg_authid.
 */
export function createRoleIfMissingSql(role: string): string {
  return `
    DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${quoteLiteral(role)}) THEN
        CREATE ROLE ${quoteIdent(role)} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
      END IF;
    EXCEPTION
      WHEN duplicate_object OR unique_violation THEN NULL; -- another database of this cluster created it meanwhile
      WHEN insufficient_privilege THEN
        RAISE EXCEPTION 'role % does not exist and % may not create it', ${quoteLiteral(role)}, current_user
          USING HINT = 'Create it once as an administrator (CREATE ROLE ' || ${quoteLiteral(role)} || ' NOLOGIN), then migrate again: see docs/adr/0015-tenant-scope.md.';
    END $$`;
}

/**
 * Tenant scope at the data layer (security test plan item 24, docs/adr/0015-tenant-scope.md).
 *
 * - The role `podprofit_app` (NOLOGIN) that the gateway's and the workers' pools switch to at
 *   connection start: roles belong to the cluster, and test databases migrate concurrently in
 *   one cluster, so it is created only if missing and a concurrent creation (duplicate_object,
 *   or unique_violation on pg_authid) counts as done. A migrating login that may not create
 *   roles gets a message saying what to do.
 * - DML on every table of the schema (SELECT only on schema_migration, which the workers read to
 *   wait for the schema), and the same by default on tables later migrations create. Ownership
 *   stays with the migrating login: the app role cannot ALTER, DROP, TRUNCATE or turn off
 *   row-level security.
 * - `analyze_synced_tables(text[])`: ANALYZE needs the tables' owner (a non-owner's is skipped
 *   with a warning), so the sync's statistics backstop calls this SECURITY DEFINER function,
 *   which analyzes only the synced tables it names, nothing else.
 * - Row-level security, ENABLEd and FORCEd (the owner too) on ROW_SECURED_TABLES: the policy
 *   `tenant_scope` (every command) shows and accepts only rows whose user_id is the transaction's
 *   `app.user_id`; without it a query sees no row and an insert is refused. `all_tenants_read`
 *   (SELECT only) is the escape of the allowlisted cross-user reads (`app.all_tenants = 'on'`).
 *   Superusers and BYPASSRLS roles skip all of it, hence the runtime role. Foreign-key checks
 *   and cascades run as the owner without FORCE, so deleting an account still empties them.
 */
export class TenantScope1764900000000 implements MigrationInterface {
  name = 'TenantScope1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(createRoleIfMissingSql(APP_ROLE));
    await queryRunner.query(`GRANT USAGE ON SCHEMA ${s} TO ${APP_ROLE}`);
    await queryRunner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${s} TO ${APP_ROLE}`);
    await queryRunner.query(`REVOKE INSERT, UPDATE, DELETE ON ${s}.schema_migration FROM ${APP_ROLE}`);
    await queryRunner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${APP_ROLE}`);
    await queryRunner.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${APP_ROLE}`,
    );
    await queryRunner.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT USAGE, SELECT ON SEQUENCES TO ${APP_ROLE}`);
    await queryRunner.query(`
      CREATE FUNCTION ${s}.analyze_synced_tables(tables text[]) RETURNS void
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $fn$
      DECLARE
        name text;
      BEGIN
        FOREACH name IN ARRAY tables LOOP
          IF name = ANY (ARRAY[${ANALYZABLE_TABLES.map(quoteLiteral).join(', ')}]) THEN
            EXECUTE format('ANALYZE (SKIP_LOCKED) %I.%I', ${quoteLiteral(schema)}, name);
          END IF;
        END LOOP;
      END $fn$`);
    await queryRunner.query(`REVOKE ALL ON FUNCTION ${s}.analyze_synced_tables(text[]) FROM PUBLIC`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION ${s}.analyze_synced_tables(text[]) TO ${APP_ROLE}`);
    for (const table of ROW_SECURED_TABLES) {
      await queryRunner.query(`ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY`);
      await queryRunner.query(
        `CREATE POLICY tenant_scope ON ${s}.${table} USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
      );
      await queryRunner.query(
        `CREATE POLICY all_tenants_read ON ${s}.${table} FOR SELECT USING (current_setting('app.all_tenants', true) = 'on')`,
      );
    }
  }

  /** The role stays: it belongs to the cluster, and other databases may use it. */
  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    for (const table of ROW_SECURED_TABLES) {
      await queryRunner.query(`DROP POLICY all_tenants_read ON ${s}.${table}`);
      await queryRunner.query(`DROP POLICY tenant_scope ON ${s}.${table}`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} NO FORCE ROW LEVEL SECURITY`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} DISABLE ROW LEVEL SECURITY`);
    }
    await queryRunner.query(`DROP FUNCTION ${s}.analyze_synced_tables(text[])`);
    await queryRunner.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} REVOKE USAGE, SELECT ON SEQUENCES FROM ${APP_ROLE}`,
    );
    await queryRunner.query(
      `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} REVOKE SELECT, INSERT, UPDATE, DELETE ON TABLES FROM ${APP_ROLE}`,
    );
    await queryRunner.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${APP_ROLE}`);
    await queryRunner.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${APP_ROLE}`);
    await queryRunner.query(`REVOKE USAGE ON SCHEMA ${s} FROM ${APP_ROLE}`);
  }
}
