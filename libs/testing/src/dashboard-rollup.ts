import {
  createDataSource,
  DashboardRollupsRepository,
  OrderCountsRepository,
  OrderRecordsRepository,
  withTransaction,
} from '@pod/db';

/**
 * Recomputes a user's dashboard rollup (dashboard_day, with the Analytics breakdowns kept beside it) and record counts (order_count_day) after a
 * test changed order_record or order_profit with plain SQL, as the application's writers do in
 * their own transactions.
 */
export async function refreshDashboardRollup(url: string, userId: string): Promise<void> {
  const dataSource = await createDataSource(
    { DATABASE_URL: url, DATABASE_POOL_SIZE: 1 },
    'refresh-rollup',
  ).initialize();
  try {
    await withTransaction(dataSource, async (manager) => {
      await new OrderRecordsRepository(manager).lockUserForMatching(userId);
      await new DashboardRollupsRepository(manager).refreshUser(userId);
      await new OrderCountsRepository(manager).refreshUser(userId);
    });
  } finally {
    await dataSource.destroy();
  }
}
