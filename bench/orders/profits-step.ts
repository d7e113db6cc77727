import { Client } from 'pg';
import { createDataSource } from '@pod/db';
import { UserProfits, type ProfitRunCounts } from '../../services/matcher/src/profits/user-profits';

/**
 * The big seller's stored figures, written by the compute-profits job's own computation
 * (UserProfits, in-process) after matching, then the planner statistics autovacuum would
 * gather after so many new rows. Timed for information; part of no ratio.
 */
export async function computeBigSellerProfits(databaseUrl: string, userId: string, now: Date): Promise<{ counts: ProfitRunCounts; ms: number }> {
  const dataSource = await createDataSource({ DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: 2 }, 'bench-profits').initialize();
  try {
    const started = performance.now();
    const counts = await new UserProfits(dataSource, () => now).computeUser(userId);
    const ms = performance.now() - started;
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('VACUUM (ANALYZE) order_record, order_profit').finally(() => client.end());
    return { counts, ms };
  } finally {
    await dataSource.destroy();
  }
}
