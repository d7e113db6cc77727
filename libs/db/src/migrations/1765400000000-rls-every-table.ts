import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE, ROW_SECURED_TABLES } from './1764900000000-tenant-scope';

/** The tenant tables 1764900000000 left open (their by-id and by-credential lookups needed them so). */
export const NEWLY_SECURED_TABLES = [
  'provider_connection',
  'user_session',
  'oauth_state',
  'sync_run',
  'sync_cursor',
  'sync_quarantine',
] as const;

/** The user a transaction is scoped to (set_config('app.user_id', …, true)); no setting, no rows. */
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/** Tables the SECURITY DEFINER functions below read or write, as their owner. */
const DEFINER_TABLES = [
  'app_user',
  'user_session',
  'oauth_state',
  'provider_connection',
  'sync_run',
  'match_run',
  'order_record',
  'order_profit',
];

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The cross-user lookups, each a SECURITY DEFINER function that the app role may only call:
 * it runs as the tables' owner (the migrating login) with search_path pinned, takes the key the
 * caller holds (a credential hash, a webhook key, a job's run id…) and returns only what the
 * caller needs: mostly the owner's id, after which everything runs scoped to that user.
 */
function definerFunctions(s: string): { signature: string; body: string }[] {
  const ACTIVE = `status IN ('queued', 'running', 'waiting_for_quota')`;
  return [
    {
      signature: `user_id_by_email(email text) RETURNS uuid`,
      body: `SELECT id FROM ${s}.app_user WHERE app_user.email = user_id_by_email.email`,
    },
    {
      // The session check: a session id hash (the credential) and the user its JWT claims.
      signature: `session_with_user(id_hash text, user_id uuid)
        RETURNS TABLE (created_at timestamptz, last_seen_at timestamptz, expires_at timestamptz, email text, first_name text, last_name text,
          display_currency text, is_demo boolean, demo_expires_at timestamptz, sandbox_tenant_id text, user_created_at timestamptz, user_updated_at timestamptz)`,
      body: `SELECT s.created_at, s.last_seen_at, s.expires_at, u.email, u.first_name, u.last_name, u.display_currency, u.is_demo,
          u.demo_expires_at, u.sandbox_tenant_id, u.created_at, u.updated_at
        FROM ${s}.user_session s JOIN ${s}.app_user u ON u.id = s.user_id
        WHERE s.id_hash = session_with_user.id_hash AND s.user_id = session_with_user.user_id`,
    },
    {
      signature: `touch_session(id_hash text, seen_at timestamptz) RETURNS void`,
      body: `UPDATE ${s}.user_session SET last_seen_at = touch_session.seen_at WHERE user_session.id_hash = touch_session.id_hash`,
    },
    {
      signature: `end_session(id_hash text) RETURNS void`,
      body: `DELETE FROM ${s}.user_session WHERE user_session.id_hash = end_session.id_hash`,
    },
    {
      // Why an OAuth callback's consume failed: looked up by the state's hash, which only its owner's browser held.
      signature: `oauth_state_by_hash(state_hash text) RETURNS TABLE (user_id uuid, session_id_hash text, consumed_at timestamptz, expires_at timestamptz)`,
      body: `SELECT o.user_id, o.session_id_hash, o.consumed_at, o.expires_at FROM ${s}.oauth_state o WHERE o.state_hash = oauth_state_by_hash.state_hash`,
    },
    {
      signature: `printify_webhook_owner(webhook_key text) RETURNS uuid`,
      body: `SELECT c.user_id FROM ${s}.provider_connection c WHERE c.webhook_key = printify_webhook_owner.webhook_key AND c.provider = 'printify'`,
    },
    {
      signature: `etsy_connections_of_shop(shop_id text) RETURNS TABLE (connection_id uuid, user_id uuid)`,
      body: `SELECT c.id, c.user_id FROM ${s}.provider_connection c
        WHERE c.provider = 'etsy' AND c.shop_id = etsy_connections_of_shop.shop_id AND c.status = 'connected' ORDER BY c.id LIMIT 100`,
    },
    {
      signature: `connected_shops_after(after_id uuid, page_size integer) RETURNS TABLE (id uuid, user_id uuid, provider text, shop_id text)`,
      body: `SELECT c.id, c.user_id, c.provider, c.shop_id FROM ${s}.provider_connection c
        WHERE c.status = 'connected' AND c.shop_id IS NOT NULL AND (connected_shops_after.after_id IS NULL OR c.id > connected_shops_after.after_id)
        ORDER BY c.id LIMIT connected_shops_after.page_size`,
    },
    {
      signature: `sync_run_owner(run_id uuid) RETURNS uuid`,
      body: `SELECT r.user_id FROM ${s}.sync_run r WHERE r.id = sync_run_owner.run_id`,
    },
    {
      signature: `stale_active_sync_runs(older_than_seconds double precision, page_size integer) RETURNS TABLE (id uuid, user_id uuid)`,
      body: `SELECT r.id, r.user_id FROM ${s}.sync_run r
        WHERE r.${ACTIVE} AND r.updated_at < now() - make_interval(secs => stale_active_sync_runs.older_than_seconds)
        ORDER BY r.updated_at LIMIT stale_active_sync_runs.page_size`,
    },
    {
      signature: `match_run_owner(run_id uuid) RETURNS uuid`,
      body: `SELECT r.user_id FROM ${s}.match_run r WHERE r.id = match_run_owner.run_id`,
    },
    {
      signature: `users_to_refigure(previous_latest_rate_date date) RETURNS SETOF uuid`,
      body: `SELECT p.user_id FROM ${s}.order_profit p WHERE p.figures <> 'ok'
        UNION
        SELECT r.user_id FROM ${s}.order_record r
          WHERE users_to_refigure.previous_latest_rate_date IS NULL OR r.order_date >= (users_to_refigure.previous_latest_rate_date + 1)
        ORDER BY 1`,
    },
    {
      // Demo cleanup: removes up to `batch` expired demo accounts, and as many whose sandbox seller
      // is gone (live_tenant_ids null: no such check), cascading to their rows; answers which went.
      signature: `sweep_demo_accounts(now_at timestamptz, batch integer, live_tenant_ids text[], judged_before timestamptz)
        RETURNS TABLE (id uuid, sandbox_tenant_id text, expired boolean)`,
      body: `WITH expired AS (
          SELECT u.id, u.sandbox_tenant_id FROM ${s}.app_user u
          WHERE u.is_demo AND u.demo_expires_at <= sweep_demo_accounts.now_at ORDER BY u.demo_expires_at LIMIT sweep_demo_accounts.batch
          FOR UPDATE SKIP LOCKED
        ), evicted AS (
          SELECT u.id, u.sandbox_tenant_id FROM ${s}.app_user u
          WHERE sweep_demo_accounts.live_tenant_ids IS NOT NULL AND u.is_demo AND u.demo_expires_at > sweep_demo_accounts.now_at
            AND u.created_at < sweep_demo_accounts.judged_before AND u.sandbox_tenant_id IS NOT NULL
            AND NOT (u.sandbox_tenant_id = ANY (sweep_demo_accounts.live_tenant_ids))
          LIMIT sweep_demo_accounts.batch FOR UPDATE SKIP LOCKED
        ), gone AS (
          SELECT e.id, e.sandbox_tenant_id, true AS expired FROM expired e
          UNION ALL SELECT v.id, v.sandbox_tenant_id, false FROM evicted v
        ), deleted AS (
          DELETE FROM ${s}.app_user u USING gone WHERE u.id = gone.id AND u.is_demo RETURNING u.id
        )
        SELECT gone.id, gone.sandbox_tenant_id, gone.expired FROM gone JOIN deleted ON deleted.id = gone.id`,
    },
  ];
}

const functionName = (signature: string) => signature.slice(0, signature.indexOf('('));

/** The names of the cross-user functions: the static check lets only its allowlisted methods call them. */
export const CROSS_USER_FUNCTIONS: readonly string[] = definerFunctions('s').map((fn) => functionName(fn.signature));
/** `name(arg type, …)` → `name(type, …)`, what GRANT and DROP FUNCTION take. */
const argumentTypes = (signature: string) => {
  const args = signature.slice(signature.indexOf('(') + 1, signature.indexOf(')'));
  return `${functionName(signature)}(${args
    .split(',')
    .map((arg) => arg.trim().split(/\s+/).slice(1).join(' '))
    .join(', ')})`;
};

/**
 * Row-level security on every tenant table (issue 16, ADR 0015 amendment of 2026-11-28).
 *
 * - The policies no longer honour `app.all_tenants`: any role may set_config() any `app.*`
 *   setting, so a setting the app role could forge was no boundary. `all_tenants_read` goes.
 * - provider_connection, user_session, oauth_state, sync_run, sync_cursor and sync_quarantine get
 *   the `tenant_scope` policy of the others; app_user gets it on `id` (a user sees their own row).
 * - Every cross-user operation is one of the SECURITY DEFINER functions above, owned by the
 *   migrating login, EXECUTE revoked from PUBLIC and granted to the app role only. So that they
 *   work when that owner is not a superuser (FORCE applies to owners too), the tables they reach
 *   get `definer_access`, a policy for the owner role alone; the runtime refuses to query as a
 *   role that owns the tables (assertRuntimeRole), so the app never holds it.
 */
export class RlsEveryTable1765400000000 implements MigrationInterface {
  name = 'RlsEveryTable1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema, owner }] = (await queryRunner.query(
      `SELECT current_schema() AS schema, current_user AS owner`,
    )) as { schema: string; owner: string }[];
    const s = quoteIdent(schema);
    for (const table of ROW_SECURED_TABLES) await queryRunner.query(`DROP POLICY all_tenants_read ON ${s}.${table}`);
    for (const table of [...NEWLY_SECURED_TABLES, 'app_user']) {
      const column = table === 'app_user' ? 'id' : 'user_id';
      await queryRunner.query(`ALTER TABLE ${s}.${table} ENABLE ROW LEVEL SECURITY`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} FORCE ROW LEVEL SECURITY`);
      await queryRunner.query(
        `CREATE POLICY tenant_scope ON ${s}.${table} USING (${column} = ${SCOPED_USER}) WITH CHECK (${column} = ${SCOPED_USER})`,
      );
    }
    for (const table of DEFINER_TABLES) {
      await queryRunner.query(
        `CREATE POLICY definer_access ON ${s}.${table} TO ${quoteIdent(owner)} USING (true) WITH CHECK (true)`,
      );
    }
    for (const fn of definerFunctions(s)) {
      await queryRunner.query(
        `CREATE FUNCTION ${s}.${fn.signature} LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$ ${fn.body} $fn$`,
      );
      await queryRunner.query(`REVOKE ALL ON FUNCTION ${s}.${argumentTypes(fn.signature)} FROM PUBLIC`);
      await queryRunner.query(`GRANT EXECUTE ON FUNCTION ${s}.${argumentTypes(fn.signature)} TO ${APP_ROLE}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    for (const fn of definerFunctions(s)) await queryRunner.query(`DROP FUNCTION ${s}.${argumentTypes(fn.signature)}`);
    for (const table of DEFINER_TABLES) await queryRunner.query(`DROP POLICY definer_access ON ${s}.${table}`);
    for (const table of [...NEWLY_SECURED_TABLES, 'app_user']) {
      await queryRunner.query(`DROP POLICY tenant_scope ON ${s}.${table}`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} NO FORCE ROW LEVEL SECURITY`);
      await queryRunner.query(`ALTER TABLE ${s}.${table} DISABLE ROW LEVEL SECURITY`);
    }
    for (const table of ROW_SECURED_TABLES) {
      await queryRunner.query(
        `CREATE POLICY all_tenants_read ON ${s}.${table} FOR SELECT USING (current_setting('app.all_tenants', true) = 'on')`,
      );
    }
  }
}
