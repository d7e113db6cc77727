/**
 * The orders bench's sizes and clock. BENCH_ORDERS_SCALE (default 1) scales every count, so
 * 0.01 checks the whole bench in seconds; BENCH_ORDERS_REPEAT sets the timed runs per read.
 */
export function numberFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max)
    throw new Error(`${name} must be a number from ${min} to ${max}`);
  return value;
}

const SCALE = numberFromEnv('BENCH_ORDERS_SCALE', 1, 0.001, 1);

/** What the seed plan needs: how many orders and sellers. */
export interface SeedSizes {
  /** The big seller's Etsy receipts, and as many Printify orders. */
  bigUserOrders: number;
  /** Orders (a receipt and its Printify order) of every other seller together. */
  otherOrders: number;
  otherUsers: number;
}

export interface BenchSizes extends SeedSizes {
  scale: number;
  /** Warm-up runs, then timed runs (the median is reported) of each read. */
  warmUps: number;
  repeats: number;
}

/** The seed's sizes at a scale: at 1, 100k orders for the big seller and 900k over 1,500 others. */
export function seedSizesAt(scale: number): SeedSizes {
  return {
    bigUserOrders: Math.max(1_000, Math.round(100_000 * scale)),
    otherOrders: Math.max(1_000, Math.round(900_000 * scale)),
    otherUsers: Math.max(10, Math.round(1_500 * scale)),
  };
}

export const SIZES: BenchSizes = {
  scale: SCALE,
  ...seedSizesAt(SCALE),
  warmUps: 2,
  repeats: Math.round(numberFromEnv('BENCH_ORDERS_REPEAT', 7, 1, 100)),
};

/**
 * The bench's "now": the seeded orders span the two years before it. The clock's, since the
 * gateway's windows ("the last 365 days") are counted from its own clock.
 */
export const BENCH_NOW = new Date(Math.floor(Date.now() / 1000) * 1000);
