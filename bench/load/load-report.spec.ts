import type { CannonResult } from './cannon';
import { errorCount, goalText, type RouteMeasurement } from './report';
import { loadRoutes } from './routes';
import { memoryGrowth, type MemorySample } from './soak';

const result = (overrides: Partial<CannonResult> = {}): CannonResult => ({
  requests: 6000,
  seconds: 60,
  p50Ms: 40,
  p99Ms: 150,
  maxMs: 300,
  non2xx: 0,
  errors: 0,
  statusCodes: { '200': 6000 },
  ...overrides,
});
const livez = { count: 3000, failures: 0, p50Ms: 2, p99Ms: 20, maxMs: 40 };
const dashboard = loadRoutes(new Date('2026-03-05T12:00:00Z'))[1];

describe('load bench report', () => {
  it('asks what the web app asks: its paths, its parameter order, the current month', () => {
    const paths = loadRoutes(new Date('2026-03-05T12:00:00Z')).map((route) => route.path);
    expect(paths).toEqual([
      '/api/dashboard/metrics?days=7&currency=USD',
      '/api/dashboard/metrics?days=30&currency=USD',
      '/api/dashboard/metrics?days=90&currency=USD',
      '/api/dashboard/metrics?days=365&currency=USD',
      '/api/orders?status=unmatched&days=30&page=1&pageSize=10&currency=USD',
      '/api/orders?page=1&pageSize=50&currency=USD',
      '/api/orders?search=mith&page=1&pageSize=50&currency=USD',
      '/api/matching/orders?month=2026-03&page=1&currency=USD',
      '/api/auth/user',
      '/livez',
    ]);
  });

  it('counts non-2xx answers and socket errors as errors, and a page misses its goal on either, on p99 or on /livez', () => {
    const measured = (r: Partial<CannonResult>, l = livez): RouteMeasurement => ({
      route: dashboard,
      result: result(r),
      livez: l,
    });
    expect(goalText(measured({}))).toBe('met');
    expect(errorCount(result({ non2xx: 3, errors: 2 }))).toBe(5);
    expect(goalText(measured({ non2xx: 1, statusCodes: { '200': 5999, '429': 1 } }))).toBe('NOT met: errors');
    expect(goalText(measured({ errors: 1 }))).toBe('NOT met: errors');
    expect(goalText(measured({ p99Ms: 201 }))).toBe('NOT met: p99 > 200 ms');
    expect(goalText(measured({}, { ...livez, p99Ms: 51 }))).toBe('NOT met: /livez p99 > 50 ms');
    expect(goalText(measured({}, { ...livez, failures: 1 }))).toBe('NOT met: /livez p99 > 50 ms');
    expect(goalText(measured({ requests: 0, p50Ms: 0, p99Ms: 0, statusCodes: {} }))).toBe(
      'NOT met: no answer completed',
    );
  });

  it('compares the mean of the first and last 5 minutes of a soak, or of its first and last fifth when shorter', () => {
    const sample = (minute: number, rss: number): MemorySample => ({
      atMs: minute * 60_000,
      byProcess: { gateway: { rss, heap: rss / 2 } },
    });
    const long = Array.from({ length: 31 }, (_, minute) =>
      sample(minute, minute <= 5 ? 100 : minute >= 25 ? 130 : 115),
    );
    expect(memoryGrowth(long, 5 * 60_000)).toEqual([
      { name: 'gateway', firstRss: 100, lastRss: 130, firstHeap: 50, lastHeap: 65 },
    ]);
    const short = [sample(0, 100), sample(1, 200), sample(2, 200), sample(3, 200), sample(4, 200), sample(5, 300)];
    // 5 minutes of samples: windows of 1 minute, both ends included.
    expect(memoryGrowth(short, 5 * 60_000)[0]).toMatchObject({ firstRss: 150, lastRss: 250 });
  });
});
