/**
 * A development aid, not part of `npm run bench`: times UserProfits.computeUser on a database
 * the orders bench kept (BENCH_KEEP_DB=1), for its biggest seller — first from no stored
 * figures, then again with nothing changed — so each change to the profit writer can be
 * measured alone. Usage: node dist/bench/bench/orders/profits-profile.js <database url>
 * (add --cpu-prof to node for a profile).
 */
import 'reflect-metadata';
import { Client } from 'pg';
import { createDataSource } from '@pod/db';
import { UserProfits } from '@pod/orders';
import { BENCH_NOW } from './config';

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: profits-profile <database url>');
  const client = new Client({ connectionString: url });
  await client.connect();
  const biggest: { user_id: string }[] = (
    await client.query(`SELECT user_id FROM order_record GROUP BY user_id ORDER BY count(*) DESC LIMIT 1`)
  ).rows;
  const userId = biggest[0].user_id;
  const dataSource = await createDataSource(
    { DATABASE_URL: url, DATABASE_POOL_SIZE: 2 },
    'profits-profile',
  ).initialize();
  try {
    await client.query(`DELETE FROM order_profit WHERE user_id = $1`, [userId]);
    await client.query(`VACUUM order_profit`);
    for (const label of ['first (no figures)', 'rerun (nothing changed)', 'rerun (nothing changed)']) {
      const started = performance.now();
      const counts = await new UserProfits(dataSource, () => BENCH_NOW).computeUser(userId);
      console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(2)} s`, counts);
    }
  } finally {
    await dataSource.destroy();
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
