import pino from 'pino';
import { createDataSource, TableStatisticsRepository } from '@pod/db';
import { OrderStatistics, UserProfits, type ProfitRunCounts } from '@pod/orders';

/**
 * The big seller's stored figures, written by the compute-profits job's own computation
 * (UserProfits, in-process) after matching, then the planner statistics the job itself
 * refreshes after so many new rows (OrderStatistics, as ProfitJobs.compute does): nothing a
 * seller's server would not do. Timed for information; part of no ratio.
 */
export async function computeBigSellerProfits(
  databaseUrl: string,
  userId: string,
  now: Date,
): Promise<{ counts: ProfitRunCounts; ms: number }> {
  const dataSource = await createDataSource(
    { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: 2 },
    'bench-profits',
  ).initialize();
  try {
    const started = performance.now();
    const counts = await new UserProfits(dataSource, () => now).computeUser(userId);
    await new OrderStatistics(new TableStatisticsRepository(dataSource), pino({ level: 'silent' })).afterWrite(userId, {
      order_profit: counts.written,
    });
    return { counts, ms: performance.now() - started };
  } finally {
    await dataSource.destroy();
  }
}
