import type { DataSource } from 'typeorm';
import { DEFAULT_MATCHING_OPTIONS, matchOrders, planRecordChanges, type MatchingOptions } from '@pod/domain';
import { MatchingInputsRepository, OrderRecordsRepository, withTransaction, type AppliedChanges } from '@pod/db';

/**
 * One user's matching: load their receipts, Printify orders and records (set-based), run the
 * engine, write the diff, all in one transaction under the user's matching lock, so two
 * replicas (or a manual match) on one user take turns and each sees the other's result.
 * Manual decisions and archived records are kept as they are.
 */
export class UserMatcher {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: MatchingOptions = DEFAULT_MATCHING_OPTIONS,
  ) {}

  matchUser(userId: string, now: Date): Promise<AppliedChanges> {
    return withTransaction(this.dataSource, async (manager) => {
      const records = new OrderRecordsRepository(manager);
      await records.lockUserForMatching(userId);
      const inputs = new MatchingInputsRepository(manager);
      const receipts = await inputs.receiptsOf(userId);
      const orders = await inputs.printifyOrdersOf(userId);
      const existing = await records.listForMatching(userId);
      const kept = existing.filter((record) => record.method === 'manual' || record.archived);
      const desired = matchOrders({ receipts, orders, kept, now }, this.options);
      return records.applyChanges(userId, planRecordChanges(existing, desired));
    });
  }
}
