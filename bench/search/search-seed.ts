import { seedOrdersDatabase, type SeededDatabase } from '../orders/seed';
import type { SeedSizes } from '../orders/config';

/**
 * The search bench's database: a big seller's synced rows (its records are written later by the
 * matcher, as the product writes them) among other sellers whose records and figures the seed
 * writes with SQL and then vacuums and analyzes (long-lived rows, as the orders bench has them).
 */
export function seedSearchDatabase(sizes: SeedSizes, now: Date): Promise<SeededDatabase> {
  return seedOrdersDatabase(sizes, now, { sqlRecords: true, vacuumAnalyze: true, label: 'search' });
}
