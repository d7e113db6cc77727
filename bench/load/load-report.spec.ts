import type { CannonResult } from './cannon';
import { errorCount, goalText, type RouteMeasurement } from './report';
import { loadRoutes, type LoadRoute } from './routes';
import { memoryGrowth, memorySeries, type MemorySample } from './soak';
import { liveVerdict } from './soak-run';

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
      '/api/analytics?days=7&currency=USD',
      '/api/analytics?days=30&currency=USD',
      '/api/analytics?days=90&currency=USD',
      '/api/analytics?days=365&currency=USD',
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
    // The trivial and bare rows: their own load is what /livez waits behind; errors still count.
    const throughputRow = (l = livez, r: Partial<CannonResult> = {}): RouteMeasurement => ({
      route: { ...dashboard, page: false },
      result: result(r),
      livez: l,
    });
    expect(goalText(throughputRow({ ...livez, p99Ms: 52 }))).toBe('met');
    expect(goalText(throughputRow(livez, { errors: 1 }))).toBe('NOT met: errors');
    expect(goalText(measured({ requests: 0, p50Ms: 0, p99Ms: 0, statusCodes: {} }))).toBe(
      'NOT met: no answer completed',
    );
  });

  it("holds the Analytics routes, profit aggregates, to item 38's 500 ms and every other page to 200 ms", () => {
    const routes = loadRoutes(new Date('2026-03-05T12:00:00Z'));
    expect(routes.filter((route) => route.aggregate).map((route) => route.label)).toEqual([
      'Analytics, 7 days',
      'Analytics, 30 days',
      'Analytics, 90 days',
      'Analytics, 365 days',
    ]);
    const analytics = routes.find((route) => route.aggregate)!;
    const measured = (route: LoadRoute, p99Ms: number): RouteMeasurement => ({
      route,
      result: result({ p99Ms }),
      livez,
    });
    expect(goalText(measured(analytics, 500))).toBe('met');
    expect(goalText(measured(analytics, 501))).toBe('NOT met: p99 > 500 ms');
    expect(goalText(measured(dashboard, 201))).toBe('NOT met: p99 > 200 ms');
  });

  it('compares the mean of the first and last 5 minutes of a soak, or of its first and last fifth when shorter', () => {
    const sample = (minute: number, rss: number): MemorySample => ({
      atMs: minute * 60_000,
      byProcess: { gateway: { rss, heap: rss / 2, live: rss / 4 } },
    });
    const long = Array.from({ length: 31 }, (_, minute) =>
      sample(minute, minute <= 5 ? 100 : minute >= 25 ? 130 : 115),
    );
    expect(memoryGrowth(long, 5 * 60_000)).toEqual([
      { name: 'gateway', first: { rss: 100, heap: 50, live: 25 }, last: { rss: 130, heap: 65, live: 32.5 } },
    ]);
    const short = [sample(0, 100), sample(1, 200), sample(2, 200), sample(3, 200), sample(4, 200), sample(5, 300)];
    // 5 minutes of samples: windows of 1 minute, both ends included.
    expect(memoryGrowth(short, 5 * 60_000)[0]).toMatchObject({ first: { rss: 150 }, last: { rss: 250 } });
  });

  it('splits a soak into equal stretches, oldest first, so a growth that levels off shows', () => {
    const samples = Array.from({ length: 13 }, (_, minute) => ({
      atMs: minute * 60_000,
      byProcess: { gateway: { rss: 100 + Math.min(minute, 6) * 10, heap: 1, live: 50 } },
    }));
    const [{ series }] = memorySeries(samples, 3);
    // Minutes 0–3, 4–7, 8–12: growth in the first two stretches, none in the last.
    expect(series.map((r) => r.rss)).toEqual([115, 152.5, 160]);
    expect(series.map((r) => r.live)).toEqual([50, 50, 50]);
  });

  it('judges a soak on live memory after a full GC: over 10 % more is growth, a missing probe is no verdict', () => {
    expect(liveVerdict(50e6, 54e6)).toBe('flat');
    expect(liveVerdict(50e6, 55e6)).toBe('flat');
    expect(liveVerdict(50e6, 55.1e6)).toBe('GROWS');
    expect(liveVerdict(NaN, 60e6)).toBe('not measured');
  });
});
