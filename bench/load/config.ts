import { numberFromEnv } from '../orders/config';
import type { SeedSizes } from '../orders/config';

/**
 * The load bench's knobs (environment) and sizes. BENCH_LOAD_SCALE scales the database (1: 200k
 * orders over 500 sellers, one with 100k; 0.05 for a quick run); the load itself is set apart
 * (BENCH_LOAD_SECONDS per route, BENCH_LOAD_CONNECTIONS), so a quick run can keep 50 connections.
 */
const SCALE = numberFromEnv('BENCH_LOAD_SCALE', 1, 0.001, 1);

export interface LoadConfig {
  scale: number;
  seed: SeedSizes;
  /** Seconds of load per route. */
  seconds: number;
  connections: number;
  /** Sellers signed in once up front; the load spreads its requests over their sessions. */
  sessions: number;
  /** 0: no soak; otherwise minutes of mixed load while every process's memory is sampled. */
  soakMinutes: number;
  /** Interval of the /livez sampler beside the load, in ms. */
  livezEveryMs: number;
  /** Only the routes whose label holds this text (any case); empty: every route. */
  routesMatching: string;
}

export const LOAD: LoadConfig = {
  scale: SCALE,
  seed: {
    bigUserOrders: Math.max(500, Math.round(100_000 * SCALE)),
    otherOrders: Math.max(500, Math.round(100_000 * SCALE)),
    otherUsers: Math.max(10, Math.round(499 * SCALE)),
  },
  seconds: Math.round(numberFromEnv('BENCH_LOAD_SECONDS', 60, 1, 3600)),
  connections: Math.round(numberFromEnv('BENCH_LOAD_CONNECTIONS', 50, 1, 1000)),
  sessions: Math.round(numberFromEnv('BENCH_LOAD_SESSIONS', 50, 1, 500)),
  soakMinutes: numberFromEnv('BENCH_LOAD_SOAK_MINUTES', 0, 0, 24 * 60),
  livezEveryMs: 20,
  routesMatching: process.env.BENCH_LOAD_ROUTES ?? '',
};

/**
 * The goals of issue 16 and security-test-plan item 38: p99 ≤ 200 ms for the pages' reads, ≤ 500 ms
 * for a profit aggregate (a whole range's figures computed per request, as Analytics does).
 */
export const GOALS = { p99Ms: 200, aggregateP99Ms: 500, livezP99Ms: 50, trivialOverBare: 0.5 };
