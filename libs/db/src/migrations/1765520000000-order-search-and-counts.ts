import type { MigrationInterface, QueryRunner } from 'typeorm';
import { APP_ROLE } from './1764900000000-tenant-scope';

/** The searched text of a record (receipt id, Printify order id, customer, title), as the index holds it. */
const SEARCH_TEXT = (alias: string) =>
  `(coalesce(${alias}.etsy_receipt_id, '') || ' ' || coalesce(${alias}.printify_order_id, '') || ' ' || coalesce(${alias}.customer_name, '') || ' ' || coalesce(${alias}.product_title, ''))`;

/**
 * The SECURITY DEFINER functions that read only the calling transaction's own user
 * (`app.user_id`), never another's: the static tenant-scope check lets only their allowlisted
 * callers name them, as it does the cross-user ones of 1765400000000.
 */
export const TENANT_DEFINER_FUNCTIONS: readonly string[] = ['order_search_hits'];

/**
 * One row per (user, UTC day of order_date, archived, status, which sides): how many records.
 * A frozen copy of OrderCountsRepository.refreshDays' aggregate.
 */
export const ORDER_COUNT_DAY_BACKFILL_SQL = `
      INSERT INTO order_count_day (user_id, day, archived, status, etsy, printify, n)
      SELECT r.user_id, (r.order_date AT TIME ZONE 'UTC')::date, r.archived_at IS NOT NULL, r.status,
        r.etsy_receipt_id IS NOT NULL, r.printify_order_id IS NOT NULL, count(*)
      FROM order_record r WHERE r.order_date IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5, 6`;

/** What the search answers of each hit: what the Orders page filters, counts and sorts by (the user's own fields). */
const HIT_COLUMNS = `r.id, r.order_date, r.status, r.archived_at, r.etsy_receipt_id, r.printify_order_id`;

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/**
 * The Orders list of a big seller without reading all its records (issue 16; ADR 0009's and
 * ADR 0015's amendments of 2026-11-28).
 *
 * - **Search through an index, under row-level security.** PostgreSQL never uses ILIKE (not
 *   leakproof) as an index condition on a table under RLS, so the search cannot be a condition
 *   of the app role's query. `order_search_hits(term)` runs as the tables' owner (SECURITY
 *   DEFINER, search_path pinned, EXECUTE for the app role only) and takes only the search term:
 *   the user is the calling transaction's `app.user_id`, so it can never answer another user's
 *   rows, and without a scope it answers none. It answers each hit's id, date, status, archive
 *   time and sides (the user's own fields the page filters, counts and sorts by). Terms with three letters or digits in a row go
 *   through `order_record_user_search_idx`, a GIN index over (user_id, the searched text's
 *   trigrams) (btree_gin, a trusted extension like pg_trgm); shorter ones, which no trigram can
 *   answer, are a scan of the user's records in the function (no per-row policy). Either way it
 *   is the old ILIKE '%term%' over the same text, `%`, `_` and `\` literal (in a UTF-8 database
 *   ILIKE is lower(text) LIKE lower(pattern), which is what the scan's strpos compares).
 * - **Counts maintained with the records.** `order_count_day`: per user, UTC day, archived,
 *   status and sides, how many records; every writer of records refreshes the days it touched
 *   in its own transaction, as dashboard_day (ADR 0018). Undated records (none in practice:
 *   both sides carry a date) are counted from the rows through a partial index, and archived
 *   ones are listed through one, both empty for most sellers.
 */
export class OrderSearchAndCounts1765520000000 implements MigrationInterface {
  name = 'OrderSearchAndCounts1765520000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(
      `CREATE INDEX order_record_user_search_idx ON order_record USING gin (user_id, ${SEARCH_TEXT('order_record')} gin_trgm_ops)`,
    );
    await queryRunner.query(`CREATE INDEX order_record_undated_idx ON order_record (user_id) WHERE order_date IS NULL`);
    await queryRunner.query(
      `CREATE INDEX order_record_archived_idx ON order_record (user_id, order_date, id) WHERE archived_at IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE order_count_day (
        user_id uuid NOT NULL CONSTRAINT order_count_day_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        day date NOT NULL,
        archived boolean NOT NULL,
        status text NOT NULL,
        etsy boolean NOT NULL,
        printify boolean NOT NULL,
        n integer NOT NULL CONSTRAINT order_count_day_n_check CHECK (n > 0),
        CONSTRAINT order_count_day_pkey PRIMARY KEY (user_id, archived, day, status, etsy, printify)
      )`);
    await queryRunner.query(ORDER_COUNT_DAY_BACKFILL_SQL);
    await queryRunner.query(`ALTER TABLE ${s}.order_count_day ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE ${s}.order_count_day FORCE ROW LEVEL SECURITY`);
    await queryRunner.query(
      `CREATE POLICY tenant_scope ON ${s}.order_count_day USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
    );
    // EXECUTE, not a static statement: the trigram path must be planned for the term itself
    // (a generic plan cannot know it has trigrams).
    await queryRunner.query(`
      CREATE FUNCTION ${s}.order_search_hits(term text)
        RETURNS TABLE (id uuid, order_date timestamptz, status text, archived_at timestamptz, etsy_receipt_id text, printify_order_id text)
      LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
      DECLARE
        scoped uuid := nullif(current_setting('app.user_id', true), '')::uuid;
      BEGIN
        IF scoped IS NULL OR term IS NULL OR term = '' THEN
          RETURN;
        END IF;
        IF term ~ '[[:alnum:]]{3}' THEN
          RETURN QUERY EXECUTE format(
            $q$SELECT ${HIT_COLUMNS} FROM %I.order_record r WHERE r.user_id = $1 AND ${SEARCH_TEXT('r')} ILIKE $2$q$, ${quoteLiteralSql(schema)})
            USING scoped, '%' || replace(replace(replace(term, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%';
        ELSE
          RETURN QUERY SELECT ${HIT_COLUMNS} FROM ${s}.order_record r
            WHERE r.user_id = scoped AND strpos(lower(${SEARCH_TEXT('r')}), lower(term)) > 0;
        END IF;
      END $fn$`);
    await queryRunner.query(`REVOKE ALL ON FUNCTION ${s}.order_search_hits(text) FROM PUBLIC`);
    await queryRunner.query(`GRANT EXECUTE ON FUNCTION ${s}.order_search_hits(text) TO ${APP_ROLE}`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`DROP FUNCTION ${s}.order_search_hits(text)`);
    await queryRunner.query(`DROP TABLE ${s}.order_count_day`);
    await queryRunner.query(`DROP INDEX ${s}.order_record_archived_idx`);
    await queryRunner.query(`DROP INDEX ${s}.order_record_undated_idx`);
    await queryRunner.query(`DROP INDEX ${s}.order_record_user_search_idx`);
    // btree_gin stays installed, as pg_trgm does (1765000000000): dropping an extension is not ours to decide.
  }
}

function quoteLiteralSql(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
