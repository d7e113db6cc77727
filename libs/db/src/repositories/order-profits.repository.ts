import type { StoredFiguresState, StoredOrderFigures } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { jsonForPostgres } from './synced-rows';

/** One row to store: a record's figures in one display currency, with what they were computed from. */
export interface OrderProfitWrite extends StoredOrderFigures {
  orderRecordId: string;
  recordSides: string;
  inputsHash: string;
}

/** What is stored for a record and currency, enough to skip recomputing it. */
export interface StoredProfitKey {
  inputsHash: string;
  figures: StoredFiguresState;
}

/** The SQL of a record's sides as order_profit.record_sides keeps them (a stale row reads as not computed). */
export const RECORD_SIDES_SQL = (alias: string) =>
  `(coalesce(${alias}.etsy_shop_id || ':' || ${alias}.etsy_receipt_id, '') || '|' || coalesce(${alias}.printify_shop_id || ':' || ${alias}.printify_order_id, ''))`;

export const recordSides = (receiptKey: string | null, printifyKey: string | null) =>
  `${receiptKey ?? ''}|${printifyKey ?? ''}`;

const WRITE_CHUNK = 2_000;

/**
 * order_profit: written only by the profit writer (the matcher's compute-profits job), under
 * the user's matching lock, in the writer's transaction. An upsert changes a row only when its
 * hash, figures or breakdown differ, so a recompute that finds nothing new writes nothing.
 */
export class OrderProfitsRepository {
  constructor(private readonly db: Db) {}

  /** "recordId:currency" → what is stored, for every row of the user. */
  async storedKeys(userId: string): Promise<Map<string, StoredProfitKey>> {
    const rows: { order_record_id: string; currency: string; inputs_hash: string; figures: StoredFiguresState }[] =
      await inTenantScope(this.db, userId, (db) =>
        db.query(`SELECT order_record_id, currency, inputs_hash, figures FROM order_profit WHERE user_id = $1`, [
          userId,
        ]),
      );
    return new Map(
      rows.map((row) => [
        `${row.order_record_id}:${row.currency}`,
        { inputsHash: row.inputs_hash, figures: row.figures },
      ]),
    );
  }

  /**
   * Writes the rows that are new or differ; answers the records whose rows were written (one id
   * per row), whose dashboard days the writer refreshes (DashboardRollupsRepository.refreshRecords).
   */
  upsert(userId: string, rows: readonly OrderProfitWrite[], computedAt: Date): Promise<string[]> {
    return inTenantScope(this.db, userId, (db) => this.write(db, userId, rows, computedAt));
  }

  private async write(db: Db, userId: string, rows: readonly OrderProfitWrite[], computedAt: Date): Promise<string[]> {
    const written: string[] = [];
    for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
      const chunk = rows.slice(start, start + WRITE_CHUNK).map((row) => ({
        order_record_id: row.orderRecordId,
        currency: row.currency,
        record_sides: row.recordSides,
        figures: row.figures,
        revenue_minor: row.revenueMinor,
        costs_minor: row.costsMinor,
        net_profit_minor: row.netProfitMinor,
        has_estimated_fees: row.hasEstimatedFees,
        printify_cost: row.printifyCost,
        breakdown: row.breakdown,
        inputs_hash: row.inputsHash,
      }));
      // Only the user's own records: a record id of another user matches nothing in the join.
      const result: unknown = await db.query(
        `INSERT INTO order_profit (order_record_id, currency, user_id, record_sides, figures, revenue_minor, costs_minor, net_profit_minor,
           has_estimated_fees, printify_cost, breakdown, inputs_hash, computed_at)
         SELECT s.order_record_id, s.currency, $1, s.record_sides, s.figures, s.revenue_minor, s.costs_minor, s.net_profit_minor,
           s.has_estimated_fees, s.printify_cost, s.breakdown, s.inputs_hash, $3
         FROM jsonb_to_recordset($2::jsonb) AS s(order_record_id uuid, currency text, record_sides text, figures text, revenue_minor bigint,
           costs_minor bigint, net_profit_minor bigint, has_estimated_fees boolean, printify_cost text, breakdown jsonb, inputs_hash text)
         JOIN order_record r ON r.id = s.order_record_id AND r.user_id = $1
         ON CONFLICT (order_record_id, currency) DO UPDATE SET
           record_sides = EXCLUDED.record_sides, figures = EXCLUDED.figures, revenue_minor = EXCLUDED.revenue_minor,
           costs_minor = EXCLUDED.costs_minor, net_profit_minor = EXCLUDED.net_profit_minor, has_estimated_fees = EXCLUDED.has_estimated_fees,
           printify_cost = EXCLUDED.printify_cost, breakdown = EXCLUDED.breakdown, inputs_hash = EXCLUDED.inputs_hash, computed_at = EXCLUDED.computed_at
         WHERE (order_profit.record_sides, order_profit.figures, order_profit.revenue_minor, order_profit.costs_minor, order_profit.net_profit_minor,
                order_profit.has_estimated_fees, order_profit.printify_cost, order_profit.breakdown, order_profit.inputs_hash)
           IS DISTINCT FROM (EXCLUDED.record_sides, EXCLUDED.figures, EXCLUDED.revenue_minor, EXCLUDED.costs_minor, EXCLUDED.net_profit_minor,
                EXCLUDED.has_estimated_fees, EXCLUDED.printify_cost, EXCLUDED.breakdown, EXCLUDED.inputs_hash)
         RETURNING order_profit.order_record_id`,
        [userId, jsonForPostgres(chunk), computedAt],
      );
      if (Array.isArray(result))
        for (const row of result as { order_record_id: string }[]) written.push(row.order_record_id);
    }
    return written;
  }

  /**
   * Users whose figures new ECB rates may change: a record whose figures are not final (waiting
   * for a rate, or provisional at a stand-in day's rates), or an order dated after the latest rate
   * that was stored before (its rate was then "not loaded yet"); all users with orders when there
   * was no rate at all.
   */
  async usersToRefigure(previousLatestRateDate: string | null): Promise<string[]> {
    // Across users by design: users_to_refigure (SECURITY DEFINER) answers the user ids and nothing else.
    const rows: { user_id: string }[] = await this.db.query(
      `SELECT user_id FROM users_to_refigure($1::date) AS user_id`,
      [previousLatestRateDate],
    );
    return rows.map((row) => row.user_id);
  }
}
