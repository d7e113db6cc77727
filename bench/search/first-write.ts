import { Client } from 'pg';
import { createDataSource } from '@pod/db';
import { UserMatcher } from '@pod/orders';
import { median } from '../orders/timing';

export interface FirstWrite {
  withIndexMs: number[];
  withoutIndexMs: number[];
  records: number;
}

/**
 * The matcher's first run for the big seller (no records → all of them, the write the search
 * index costs most), with and without the search index, alternated in one run: the records are
 * deleted and the table vacuumed before each, outside the timing. The index is dropped and
 * rebuilt from its own definition between the two (this bench's database only).
 */
export async function measureFirstWrite(url: string, userId: string, now: Date, repeats: number): Promise<FirstWrite> {
  const dataSource = await createDataSource(
    { DATABASE_URL: url, DATABASE_POOL_SIZE: 2 },
    'bench-search-matcher',
  ).initialize();
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const [{ indexdef }] = (
      await client.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE indexname = 'order_record_user_search_idx'`,
      )
    ).rows;
    const matcher = new UserMatcher(dataSource);
    const run = async () => {
      await client.query(`DELETE FROM order_record WHERE user_id = $1`, [userId]);
      await client.query(`VACUUM order_record`);
      const started = performance.now();
      await matcher.matchUser(userId, now);
      return performance.now() - started;
    };
    const withIndexMs: number[] = [];
    const withoutIndexMs: number[] = [];
    for (let i = 0; i < repeats; i += 1) {
      withIndexMs.push(await run());
      await client.query(`DROP INDEX order_record_user_search_idx`);
      withoutIndexMs.push(await run());
      await client.query(indexdef);
    }
    const records = Number(
      (await client.query<{ n: string }>(`SELECT count(*) AS n FROM order_record WHERE user_id = $1`, [userId])).rows[0]
        .n,
    );
    return { withIndexMs, withoutIndexMs, records };
  } finally {
    await client.end();
    await dataSource.destroy();
  }
}

export const medianOf = median;
