import type { MigrationInterface, QueryRunner } from 'typeorm';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SCOPED_USER = `nullif(current_setting('app.user_id', true), '')::uuid`;

/** The per-user lock every rewrite of a user's records takes (OrderRecordsRepository's USER_LOCK_SQL). */
const USER_LOCK = (userExpr: string) => `pg_advisory_xact_lock(hashtextextended('order_record:' || ${userExpr}, 0))`;

/**
 * A receipt with several Printify orders, and orders that need no match (issue 17, ADR 0025).
 *
 * - `order_record_printify_order`: a record's **additional** Printify orders (the primary stays
 *   on order_record), with why (reprint, split, manual) and when. One row per Printify order
 *   (the primary key), cascading with its record and with the synced order.
 * - **A Printify order is on one receipt only, across both tables.** Two statement-level
 *   triggers (one per table, over the statement's new rows) refuse an order that the other
 *   table holds, with unique_violation and the constraint name
 *   `order_record_printify_order_once`. Each first takes the user's record lock (the one the
 *   matcher and every edit take), so a check never runs beside another writer's uncommitted
 *   rows: two matcher replicas or a manual edit racing the matcher cannot both commit one order.
 *   Set-based (transition tables), not per row: a 100k-record matcher write checks once.
 * - order_record: status `not_needed` with `not_needed_reason` (digital, printify_sample,
 *   printify_manual, canceled_empty), set exactly when not_needed; a lone side may be not_needed.
 * - Row-level security like every tenant table.
 */
export class SeveralPrintifyOrders1765600000000 implements MigrationInterface {
  name = 'SeveralPrintifyOrders1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    await queryRunner.query(`ALTER TABLE order_record DROP CONSTRAINT order_record_status_check`);
    await queryRunner.query(`ALTER TABLE order_record DROP CONSTRAINT order_record_pairing_check`);
    await queryRunner.query(`ALTER TABLE order_record ADD COLUMN not_needed_reason text NULL`);
    await queryRunner.query(`ALTER TABLE order_record ADD CONSTRAINT order_record_status_check
      CHECK (status IN ('matched', 'pending', 'unmatched', 'not_needed'))`);
    await queryRunner.query(`ALTER TABLE order_record ADD CONSTRAINT order_record_not_needed_reason_check
      CHECK ((status = 'not_needed') = (not_needed_reason IS NOT NULL)
        AND (not_needed_reason IS NULL OR not_needed_reason IN ('digital', 'printify_sample', 'printify_manual', 'canceled_empty')))`);
    await queryRunner.query(
      `ALTER TABLE order_record ADD CONSTRAINT order_record_pairing_check CHECK (${PAIRING_CHECK})`,
    );

    await queryRunner.query(`
      CREATE TABLE order_record_printify_order (
        user_id uuid NOT NULL CONSTRAINT order_record_printify_order_user_id_fkey REFERENCES app_user (id) ON DELETE CASCADE,
        order_record_id uuid NOT NULL CONSTRAINT order_record_printify_order_record_fkey REFERENCES order_record (id) ON DELETE CASCADE,
        printify_shop_id text NOT NULL,
        printify_order_id text NOT NULL,
        reason text NOT NULL CONSTRAINT order_record_printify_order_reason_check CHECK (reason IN ('reprint', 'split', 'manual')),
        attached_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT order_record_printify_order_pkey PRIMARY KEY (user_id, printify_order_id, printify_shop_id),
        CONSTRAINT order_record_printify_order_order_fkey FOREIGN KEY (user_id, printify_shop_id, printify_order_id)
          REFERENCES printify_order (user_id, shop_id, order_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX order_record_printify_order_record_idx ON order_record_printify_order (order_record_id)`,
    );

    await queryRunner.query(`
      CREATE FUNCTION ${s}.order_record_printify_once_on_record() RETURNS trigger
      LANGUAGE plpgsql SET search_path = ${s}, pg_catalog, pg_temp AS $fn$
      BEGIN
        PERFORM ${USER_LOCK('u.user_id::text')} FROM (SELECT DISTINCT user_id FROM new_rows WHERE printify_order_id IS NOT NULL ORDER BY 1) u;
        IF EXISTS (SELECT 1 FROM new_rows n JOIN order_record_printify_order a
            ON a.user_id = n.user_id AND a.printify_order_id = n.printify_order_id AND a.printify_shop_id = n.printify_shop_id) THEN
          RAISE EXCEPTION 'a Printify order is on one receipt only' USING ERRCODE = 'unique_violation',
            CONSTRAINT = 'order_record_printify_order_once', TABLE = 'order_record';
        END IF;
        RETURN NULL;
      END $fn$`);
    await queryRunner.query(`
      CREATE FUNCTION ${s}.order_record_printify_once_on_attached() RETURNS trigger
      LANGUAGE plpgsql SET search_path = ${s}, pg_catalog, pg_temp AS $fn$
      BEGIN
        PERFORM ${USER_LOCK('u.user_id::text')} FROM (SELECT DISTINCT user_id FROM new_rows ORDER BY 1) u;
        IF EXISTS (SELECT 1 FROM new_rows n JOIN order_record r
            ON r.user_id = n.user_id AND r.printify_order_id = n.printify_order_id AND r.printify_shop_id = n.printify_shop_id) THEN
          RAISE EXCEPTION 'a Printify order is on one receipt only' USING ERRCODE = 'unique_violation',
            CONSTRAINT = 'order_record_printify_order_once', TABLE = 'order_record_printify_order';
        END IF;
        RETURN NULL;
      END $fn$`);
    for (const event of ['INSERT', 'UPDATE']) {
      const name = event.toLowerCase();
      await queryRunner.query(`CREATE TRIGGER order_record_printify_once_${name} AFTER ${event} ON order_record
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.order_record_printify_once_on_record()`);
      await queryRunner.query(`CREATE TRIGGER order_record_printify_order_once_${name} AFTER ${event} ON order_record_printify_order
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.order_record_printify_once_on_attached()`);
    }

    await queryRunner.query(`ALTER TABLE ${s}.order_record_printify_order ENABLE ROW LEVEL SECURITY`);
    await queryRunner.query(`ALTER TABLE ${s}.order_record_printify_order FORCE ROW LEVEL SECURITY`);
    await queryRunner.query(
      `CREATE POLICY tenant_scope ON ${s}.order_record_printify_order USING (user_id = ${SCOPED_USER}) WITH CHECK (user_id = ${SCOPED_USER})`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const [{ schema }] = (await queryRunner.query(`SELECT current_schema() AS schema`)) as { schema: string }[];
    const s = quoteIdent(schema);
    for (const event of ['insert', 'update'])
      await queryRunner.query(`DROP TRIGGER order_record_printify_once_${event} ON order_record`);
    await queryRunner.query('DROP TABLE order_record_printify_order');
    await queryRunner.query(`DROP FUNCTION ${s}.order_record_printify_once_on_record()`);
    await queryRunner.query(`DROP FUNCTION ${s}.order_record_printify_once_on_attached()`);
    await queryRunner.query(`DELETE FROM order_record WHERE status = 'not_needed'`);
    await queryRunner.query(`ALTER TABLE order_record DROP CONSTRAINT order_record_not_needed_reason_check`);
    await queryRunner.query(`ALTER TABLE order_record DROP CONSTRAINT order_record_pairing_check`);
    await queryRunner.query(`ALTER TABLE order_record DROP CONSTRAINT order_record_status_check`);
    await queryRunner.query(`ALTER TABLE order_record DROP COLUMN not_needed_reason`);
    await queryRunner.query(
      `ALTER TABLE order_record ADD CONSTRAINT order_record_status_check CHECK (status IN ('matched', 'pending', 'unmatched'))`,
    );
    await queryRunner.query(`ALTER TABLE order_record ADD CONSTRAINT order_record_pairing_check CHECK (
      CASE WHEN etsy_receipt_id IS NOT NULL AND printify_order_id IS NOT NULL
        THEN match_method IS NOT NULL AND match_confidence IS NOT NULL AND (status = 'matched' OR (status = 'pending' AND match_method = 'fuzzy'))
        ELSE match_confidence IS NULL AND status <> 'matched' AND (match_method IS NULL OR match_method = 'manual') AND (status = 'unmatched' OR etsy_receipt_id IS NOT NULL)
      END)`);
  }
}

/**
 * The pairing rules (1764600000000's) with not_needed: a pair is matched (any method) or pending
 * (fuzzy); a lone side has no confidence and no method but "manual"; only a receipt may be
 * pending alone; either lone side may be unmatched or not_needed. The entity declares the same text.
 */
export const PAIRING_CHECK = `CASE WHEN etsy_receipt_id IS NOT NULL AND printify_order_id IS NOT NULL
     THEN match_method IS NOT NULL AND match_confidence IS NOT NULL AND (status = 'matched' OR (status = 'pending' AND match_method = 'fuzzy'))
     ELSE match_confidence IS NULL AND status <> 'matched' AND (match_method IS NULL OR match_method = 'manual') AND (status IN ('unmatched', 'not_needed') OR etsy_receipt_id IS NOT NULL)
   END`;
