import type { Db } from './database-session';
import { DashboardRollupsRepository } from './dashboard-rollups.repository';
import { OrderCountsRepository } from './order-counts.repository';

/**
 * Every per-day table kept with a user's records — dashboard_day's figures and order_count_day's
 * counts — recomputed for the days a write touched. Every writer of order_record calls this one
 * function, in its transaction after its writes, under the user's matching lock, so a new day
 * table joins here rather than at each writer.
 */
export async function refreshDaySummaries(db: Db, userId: string, days: Iterable<string>): Promise<void> {
  const touched = [...days];
  await new DashboardRollupsRepository(db).refreshDays(userId, touched);
  await new OrderCountsRepository(db).refreshDays(userId, touched);
}
