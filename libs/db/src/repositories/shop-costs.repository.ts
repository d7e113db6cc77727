import type { CurrencyCode, ShopCostDay, ShopCostEntryInput } from '@pod/domain';
import type { Db } from './database-session';
import { inTenantScope } from './tenant-scope';
import { jsonForPostgres } from './synced-rows';

/**
 * The ledger entries the shop-cost rollup reads, and shop_cost_day (migration 1765620000000,
 * docs/adr/0027). Only entries no order carries are read (no receipt linked), with the entries
 * they tax (`parent_entry_id`) so VAT can follow its fee: a few per day, not the whole ledger.
 */
export class ShopCostsRepository {
  constructor(private readonly db: Db) {}

  /** The user's unlinked entries, and the parents they name (linked or not). */
  async unlinkedEntries(userId: string): Promise<ShopCostEntryInput[]> {
    const rows: {
      shop_id: string;
      entry_id: string;
      ledger_type: string;
      parent_entry_id: string | null;
      linked: boolean;
      currency: CurrencyCode;
      amount_minor: string;
      entry_created_at: Date;
    }[] = await inTenantScope(this.db, userId, (db) =>
      db.query(
        `WITH unlinked AS (
           SELECT shop_id, entry_id, ledger_type, parent_entry_id, receipt_id IS NOT NULL AS linked, currency,
             amount_minor::text AS amount_minor, entry_created_at
           FROM etsy_ledger_entry WHERE user_id = $1 AND receipt_id IS NULL)
         SELECT * FROM unlinked
         UNION
         SELECT p.shop_id, p.entry_id, p.ledger_type, p.parent_entry_id, p.receipt_id IS NOT NULL, p.currency,
           p.amount_minor::text, p.entry_created_at
         FROM unlinked u JOIN etsy_ledger_entry p ON p.user_id = $1 AND p.shop_id = u.shop_id AND p.entry_id = u.parent_entry_id
         WHERE p.receipt_id IS NOT NULL`,
        [userId],
      ),
    );
    return rows.map((row) => ({
      // Entry ids are unique per shop: keyed with the shop so two shops' ids never meet.
      entryId: `${row.shop_id}:${row.entry_id}`,
      ledgerType: row.ledger_type,
      parentEntryId: row.parent_entry_id === null ? null : `${row.shop_id}:${row.parent_entry_id}`,
      linkedToOrder: row.linked,
      currency: row.currency,
      amountMinor: Number(row.amount_minor),
      createdAt: row.entry_created_at,
    }));
  }

  /** Replaces every shop_cost_day row of the user (in the caller's transaction). */
  async replace(userId: string, days: readonly ShopCostDay[]): Promise<void> {
    await inTenantScope(this.db, userId, async (db) => {
      await db.query(`DELETE FROM shop_cost_day WHERE user_id = $1`, [userId]);
      if (days.length === 0) return;
      await db.query(
        `INSERT INTO shop_cost_day (user_id, currency, day, kind, cost_minor, entries, without_rate, provisional)
         SELECT $1, d.currency, d.day, d.kind, d.cost_minor, d.entries, d.without_rate, d.provisional
         FROM jsonb_to_recordset($2::jsonb) AS d(currency char(3), day date, kind text, cost_minor bigint, entries integer, without_rate integer, provisional integer)`,
        [
          userId,
          jsonForPostgres(
            days.map((day) => ({
              currency: day.currency,
              day: day.day,
              kind: day.kind,
              cost_minor: day.costMinor,
              entries: day.entries,
              without_rate: day.withoutRate,
              provisional: day.provisional,
            })),
          ),
        ],
      );
    });
  }
}
