import {
  DISPLAY_CURRENCY_CODES,
  EXCHANGE_LOOKBACK_DAYS,
  newUnclassifiedTypes,
  orderDateUtc,
  RateTable,
  rateTableConverter,
  shopCostDays,
  type ShopCostEntryInput,
} from '@pod/domain';
import { FxRatesRepository, ShopCostsRepository, type Db } from '@pod/db';

/** Ledger types found unclassified in this process: each is reported once (docs/adr/0027). */
const reportedUnclassified = new Set<string>();

/**
 * One user's shop costs (docs/adr/0027): the ledger entries no order carries, classified by
 * kind, each converted at its own date's ECB rate into every display currency, rewritten into
 * shop_cost_day. Run by UserProfits in its transaction, under the user's matching lock, so the
 * links it reads (an entry's receipt) do not move meanwhile. Answers the ledger types it found
 * unclassified for the first time in this process, for the caller to log.
 */
export class ShopCosts {
  /** `vatRegistered`: the seller's profit setting; the VAT on fees they reclaim is no shop cost. */
  async writeUser(
    manager: Db,
    userId: string,
    vatRegistered = false,
  ): Promise<{ days: number; newUnclassifiedTypes: string[] }> {
    const repository = new ShopCostsRepository(manager);
    const entries = await repository.unlinkedEntries(userId);
    const convert = rateTableConverter(await rateTableFor(manager, entries));
    const days = DISPLAY_CURRENCY_CODES.flatMap((currency) =>
      shopCostDays(entries, currency, convert, { vatReclaimed: vatRegistered }),
    );
    await repository.replace(userId, days);
    return {
      days: days.length,
      newUnclassifiedTypes: newUnclassifiedTypes(
        entries.filter((entry) => !entry.linkedToOrder).map((entry) => entry.ledgerType),
        reportedUnclassified,
      ),
    };
  }
}

/** Rates from the look-back before the earliest entry to the latest (as for order figures). */
async function rateTableFor(manager: Db, entries: readonly ShopCostEntryInput[]): Promise<RateTable> {
  if (entries.length === 0) return RateTable.fromRows([]);
  const dates = entries.map((entry) => orderDateUtc(entry.createdAt)).sort();
  const from = new Date(`${dates[0]}T00:00:00Z`);
  from.setUTCDate(from.getUTCDate() - EXCHANGE_LOOKBACK_DAYS);
  return RateTable.fromRows(
    await new FxRatesRepository(manager).ratesBetween(from.toISOString().slice(0, 10), dates[dates.length - 1]),
  );
}
